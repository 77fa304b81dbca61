import { describe, expect, it } from 'vitest';
import { ReconcileFailedError } from '../../../../../lib/exports/reconciler/errors';

describe('ReconcileFailedError', () => {
  it('keeps the sweep summary and the failed ids, names each failure by its kind, and is caused by the first', () => {
    // Prepare
    const summary = { examined: 5, finished: 2, workflowsRestarted: 1, failures: 2 };
    const first = new TypeError('boom');

    // Act
    const error = new ReconcileFailedError(summary, [
      { exportId: 'ex_1', error: first },
      { exportId: 'ex_2', error: 'not an error' },
    ]);

    // Assess
    expect(error.summary).toEqual(summary);
    expect(error.failedExportIds).toEqual(['ex_1', 'ex_2']);
    expect(error.message).toBe('The reconciler could not repair 2 export(s): ex_1: TypeError, ex_2: unknown');
    expect(error.cause).toBe(first);
    expect(error.problem).toBeUndefined();
  });
});
