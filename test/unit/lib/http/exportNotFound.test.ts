import { describe, expect, it } from 'vitest';
import { ProblemType } from '../../../../lib/errors/problems';
import { exportNotFound } from '../../../../lib/http/exportNotFound';
import { ProblemError } from '../../../../lib/http/ProblemError';
import { problemForError } from '../../../../lib/http/problemForError';

describe('exportNotFound', () => {
  it('is one 404 problem whatever the cause, keeping the cause for the logs only', () => {
    // Prepare
    const cause = new Error('another spot');

    // Act
    const plain = exportNotFound();
    const caused = exportNotFound({ cause });

    // Assess
    expect(plain).toBeInstanceOf(ProblemError);
    expect(plain.problem).toEqual({ type: ProblemType.EXPORT_NOT_FOUND });
    expect(problemForError(plain)?.status).toBe(404);
    expect(problemForError(caused)).toEqual(problemForError(plain));
    expect(JSON.stringify(problemForError(caused))).not.toContain('another spot');
    expect(caused.cause).toBe(cause);
  });
});
