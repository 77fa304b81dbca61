import { describe, expect, it } from 'vitest';
import {
  ExportCreateDeferredError,
  ExportCreateRejectedError,
  ExportFinishingError,
  ExportPollingTimedOutError,
  ExportStillProcessingError,
  UpstreamUnavailableForWorkflowError,
} from '../../../../../lib/exports/workflow/errors';
import { WorkflowErrorNames } from '../../../../../lib/exports/workflow/workflowContract';

describe('workflow errors', () => {
  it("are named exactly as the state machine's Retry and Catch key on them", () => {
    // Act
    const names = [
      new ExportStillProcessingError('ex_1'),
      new ExportFinishingError('ex_1'),
      new ExportPollingTimedOutError('ex_1', '2026-11-28T00:00:00Z'),
      new UpstreamUnavailableForWorkflowError('down'),
      new ExportCreateDeferredError('waits'),
      new ExportCreateRejectedError('ex_1', 'bad range'),
    ].map((error) => error.name);

    // Assess
    expect(names).toEqual([
      WorkflowErrorNames.STILL_PROCESSING,
      WorkflowErrorNames.FINISHING,
      WorkflowErrorNames.POLLING_TIMED_OUT,
      WorkflowErrorNames.UPSTREAM_UNAVAILABLE,
      WorkflowErrorNames.CREATE_DEFERRED,
      WorkflowErrorNames.CREATE_REJECTED,
    ]);
  });

  it('log the decisions the state machine takes at INFO, and an upstream refusal at WARN', () => {
    // Act
    const outcome = new ExportPollingTimedOutError('ex_1', '2026-11-28T00:00:00Z');
    const rejected = new ExportCreateRejectedError('ex_1', 'bad range', { cause: new Error('422') });

    // Assess
    expect(outcome.logLevel).toBe('info');
    expect(new ExportCreateDeferredError('waits').logLevel).toBe('info');
    expect(rejected.logLevel).toBe('warn');
    expect(rejected.cause).toEqual(new Error('422'));
  });

  it('name the export, and the deadline or the reason, and are never shown to an API caller', () => {
    // Act
    const timedOut = new ExportPollingTimedOutError('ex_1', '2026-11-28T00:00:00Z');
    const rejected = new ExportCreateRejectedError('ex_2', 'bad range');

    // Assess
    expect(timedOut.message).toBe('Export ex_1 did not finish before 2026-11-28T00:00:00Z');
    expect(rejected.message).toBe('Export ex_2 was rejected: bad range');
    expect(timedOut.problem).toBeUndefined();
    expect(rejected.problem).toBeUndefined();
  });
});
