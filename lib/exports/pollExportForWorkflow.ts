import {
  TokenUnavailableError,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamUnavailableError,
} from '../openweb/errors';
import { CredentialsUnavailableError } from '../secrets/errors';
import {
  ExportPollingTimedOutError,
  ExportStillProcessingError,
  UpstreamUnavailableForWorkflowError,
} from '../workflow/errors';
import type { PollTaskInput, PollTaskOutput } from '../workflow/pollingWorkflowContract';
import { checkExport } from './checkExport';
import { isTerminal } from './ExportStatus';
import type { ExportDependencies } from './ports';

/**
 * One poll of the workflow loop: terminal → the task's output; still running →
 * ExportStillProcessing (the state machine's Retry is the backoff); past the
 * deadline → ExportPollingTimedOut (the Catch aborts); transient trouble →
 * UpstreamUnavailable (retried separately, so an outage does not eat the poll budget).
 */
export async function pollExportForWorkflow(
  deps: ExportDependencies,
  input: PollTaskInput,
): Promise<PollTaskOutput> {
  let record: Awaited<ReturnType<typeof checkExport>>;
  try {
    record = await checkExport(deps, { spotId: input.spotId, exportId: input.exportId, mode: 'workflow' });
  } catch (error) {
    if (isTransient(error))
      throw new UpstreamUnavailableForWorkflowError('upstream unavailable', { cause: error });
    throw error;
  }
  if (isTerminal(record.status))
    return { exportId: record.exportId, status: record.status, links: record.links };
  if (deps.now() > Date.parse(input.deadline))
    throw new ExportPollingTimedOutError(record.exportId, input.deadline);
  throw new ExportStillProcessingError(record.exportId);
}

function isTransient(error: unknown): boolean {
  return (
    error instanceof UpstreamUnavailableError ||
    error instanceof UpstreamRateLimitedError ||
    error instanceof UpstreamProtocolError ||
    error instanceof TokenUnavailableError ||
    error instanceof CredentialsUnavailableError
  );
}
