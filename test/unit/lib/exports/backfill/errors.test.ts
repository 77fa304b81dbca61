import { describe, expect, it } from 'vitest';
import { ProblemType } from '../../../../../lib/errors/problems';
import {
  BackfillAlreadyExistsError,
  BackfillNotFoundError,
  BackfillTooLargeError,
} from '../../../../../lib/exports/backfill/errors';
import { problemForError } from '../../../../../lib/http/problemForError';

describe('backfill errors', () => {
  it('BackfillNotFoundError keeps the ids for the logs and shows the caller a bare 404', () => {
    // Act
    const error = new BackfillNotFoundError('sp_abc', 'bf_1');

    // Assess
    expect(error.spotId).toBe('sp_abc');
    expect(error.backfillId).toBe('bf_1');
    expect(error.problem).toEqual({ type: ProblemType.BACKFILL_NOT_FOUND });
    expect(problemForError(error)?.status).toBe(404);
    expect(JSON.stringify(problemForError(error))).not.toContain('sp_abc');
  });

  it('BackfillTooLargeError is a 400 naming the windowHours field and both counts', () => {
    // Act
    const error = new BackfillTooLargeError(900, 720);
    const rendered = problemForError(error);

    // Assess
    expect(error.windows).toBe(900);
    expect(error.maxWindows).toBe(720);
    expect(rendered?.status).toBe(400);
    expect(rendered?.errors).toHaveLength(1);
    expect(rendered?.errors?.[0]?.field).toBe('body.windowHours');
    expect(rendered?.errors?.[0]?.message).toContain('900');
    expect(rendered?.errors?.[0]?.message).toContain('720');
  });

  it('BackfillAlreadyExistsError keeps the existing record when it could be read, and is never shown', () => {
    // Act
    const error = new BackfillAlreadyExistsError('sp_abc', 'bf_1', undefined);

    // Assess
    expect(error.existing).toBeUndefined();
    expect(error.message).toBe('Backfill bf_1 of spot sp_abc already exists');
    expect(error.problem).toBeUndefined();
  });
});
