import { describe, expect, it } from 'vitest';
import { ProblemType } from '../../../../../lib/errors/problems';
import { SpotBusyError } from '../../../../../lib/exports/queue/errors';
import type { SpotLock } from '../../../../../lib/exports/queue/SpotLock';
import { problemForError } from '../../../../../lib/http/problemForError';

describe('SpotBusyError', () => {
  it('carries the holding export as the problem data a caller can act on', () => {
    // Prepare
    const lock = { spotId: 'sp_abc', exportId: 'ex_holder' } as SpotLock;

    // Act
    const error = new SpotBusyError('sp_abc', lock);

    // Assess
    expect(error.activeExportId).toBe('ex_holder');
    expect(error.lock).toBe(lock);
    expect(error.problem).toEqual({ type: ProblemType.SPOT_BUSY, activeExportId: 'ex_holder' });
    expect(problemForError(error)?.status).toBe(409);
    expect(error.message).toBe('Spot sp_abc is busy with export ex_holder');
  });

  it('says the holder kept changing when no lock could be read', () => {
    // Act
    const error = new SpotBusyError('sp_abc', undefined);

    // Assess
    expect(error.activeExportId).toBeUndefined();
    expect(error.problem).toEqual({ type: ProblemType.SPOT_BUSY, activeExportId: undefined });
    expect(error.message).toContain('(changing holder)');
  });
});
