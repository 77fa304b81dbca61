import { checkExport } from './checkExport';
import { isTerminal } from './ExportStatus';
import {
  ExportPollingTimedOutError,
  ExportStillProcessingError,
  UpstreamUnavailableForWorkflowError,
} from './errors';
import { isTransientFailure } from './isTransientFailure';
import type { ExportDependencies } from './ports';
import type { PollTaskOutput } from './workflowContract';
import type { PollTaskInput } from './workflowTaskInput';

/**
 * One poll of the workflow loop: terminal → the task's output; still running →
 * ExportStillProcessing (the state machine's Retry is the backoff); past the
 * deadline → ExportPollingTimedOut (the Catch aborts); transient trouble, the upstream's
 * or AWS's → UpstreamUnavailable, which the state machine retries like a poll that learned
 * nothing, so no number of hiccups over a long export fails it.
 */
export async function pollExportForWorkflow(
  deps: ExportDependencies,
  input: PollTaskInput,
): Promise<PollTaskOutput> {
  let record: Awaited<ReturnType<typeof checkExport>>;
  try {
    record = await checkExport(deps, { spotId: input.spotId, exportId: input.exportId, mode: 'workflow' });
  } catch (error) {
    if (!isTransientFailure(error)) throw error;
    // An outage does not stretch the deadline: past it, the Catch aborts as for a slow export.
    if (deps.now() > Date.parse(input.deadline))
      throw new ExportPollingTimedOutError(input.exportId, input.deadline);
    throw new UpstreamUnavailableForWorkflowError('upstream unavailable', { cause: error });
  }
  if (isTerminal(record.status))
    return {
      spotId: record.spotId,
      exportId: record.exportId,
      status: record.status,
      fileCount: record.links.length,
    };
  if (deps.now() > Date.parse(input.deadline))
    throw new ExportPollingTimedOutError(record.exportId, input.deadline);
  throw new ExportStillProcessingError(record.exportId);
}
