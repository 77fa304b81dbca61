import type { ExportRecord } from '../record/ExportRecord';
import { isTerminal } from '../record/ExportStatus';
import { isTransientFailure } from '../record/failureReasons';
import {
  ExportFinishingError,
  ExportPollingTimedOutError,
  ExportStillProcessingError,
  UpstreamUnavailableForWorkflowError,
} from '../workflow/errors';
import type { PollTaskOutput } from '../workflow/workflowContract';
import type { PollTaskInput } from '../workflow/workflowTaskInput';
import { checkExport } from './checkExport';
import type { LifecycleDependencies } from './ports';
import { someoneWaitsFor } from './someoneWaits';

/**
 * One poll of the workflow loop: terminal → the task's output; still running →
 * ExportStillProcessing (the state machine's Retry is the backoff), or ExportFinishing within
 * the export's expected end when someone waits for it (a Retry that polls again within seconds;
 * see someoneWaitsFor); past the
 * deadline → ExportPollingTimedOut (the Catch aborts); transient trouble, the upstream's
 * or AWS's → UpstreamUnavailable, which the state machine retries like a poll that learned
 * nothing, so no number of hiccups over a long export fails it.
 */
export async function pollExportForWorkflow(
  deps: LifecycleDependencies,
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
  if (isFinishing(record, deps.now()) && (await someoneWaitsFor(deps, record)))
    throw new ExportFinishingError(record.exportId);
  throw new ExportStillProcessingError(record.exportId);
}

/** Past the expected end, a little more is allowed before polls back off: this share of the export's expected time… */
export const FINISHING_GRACE_SHARE = 0.1;
/** …but at most this long. */
export const MAX_FINISHING_GRACE_SECONDS = 60;
const MS_PER_SECOND = 1000;

/**
 * Whether a poll that saw the export still processing falls where its end is expected (from the
 * expected end's start to a little past its close): then the next poll comes within seconds.
 */
export function isFinishing(record: ExportRecord, nowMs: number): boolean {
  const { expectedEnd, startedAt } = record;
  if (expectedEnd === undefined || startedAt === undefined) return false;
  const untilMs = Date.parse(expectedEnd.until);
  const graceMs = Math.min(
    MAX_FINISHING_GRACE_SECONDS * MS_PER_SECOND,
    FINISHING_GRACE_SHARE * (untilMs - Date.parse(startedAt)),
  );
  return nowMs >= Date.parse(expectedEnd.from) && nowMs <= untilMs + graceMs;
}
