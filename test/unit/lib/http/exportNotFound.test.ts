import { describe, expect, it } from 'vitest';
import { exportNotFound } from '../../../../lib/http/exportNotFound';
import { ProblemError } from '../../../../lib/http/ProblemError';

describe('exportNotFound', () => {
  it('is one 404 problem whatever the cause, keeping the cause for the logs only', () => {
    // Prepare
    const cause = new Error('another spot');

    // Act
    const plain = exportNotFound();
    const caused = exportNotFound({ cause });

    // Assess
    expect(plain).toBeInstanceOf(ProblemError);
    expect(plain.problem.status).toBe(404);
    expect(caused.problem).toEqual(plain.problem);
    expect(JSON.stringify(caused.problem)).not.toContain('another spot');
    expect(caused.cause).toBe(cause);
  });
});
