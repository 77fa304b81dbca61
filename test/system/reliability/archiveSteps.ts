import { ARCHIVE_RETRY } from '../../../infra/workflowRetries';
import { ArchiveStatus } from '../../../lib/exports/record/ExportArchive';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { WorkflowErrorNames } from '../../../lib/exports/workflow/workflowContract';
import { HandlerNames } from '../../../lib/http/routeTable';
import type { FaultScenario } from './FaultScenario';

/** Failed archive attempts per export, per scenario: the archive task's Retry counts them. */
const failedAttempts = new WeakMap<FaultScenario, Map<string, number>>();

/**
 * One turn of the workflow's archive task for every COMPLETED export whose archive is not final,
 * as the state machine runs it: `ExportArchiveRetry` is retried (up to its retrier's attempts),
 * anything else, or the last retry, goes to the task that records the archive FAILED (its Catch).
 */
export async function archiveCompletedExports(scenario: FaultScenario): Promise<void> {
  const failed = failedAttempts.get(scenario) ?? new Map<string, number>();
  failedAttempts.set(scenario, failed);
  for (const record of await scenario.records()) {
    const archiveStatus = record.archive?.status;
    if (record.status !== ExportStatus.COMPLETED) continue;
    if (archiveStatus !== undefined && archiveStatus !== ArchiveStatus.PENDING) continue;
    const { spotId, exportId } = record;
    try {
      await scenario.main.invoke(HandlerNames.ARCHIVE, { action: 'archive', spotId, exportId });
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error';
      const attempts = (failed.get(exportId) ?? 0) + 1;
      failed.set(exportId, attempts);
      if (name === WorkflowErrorNames.ARCHIVE_RETRY && attempts <= ARCHIVE_RETRY.maxAttempts) continue;
      failed.delete(exportId);
      const cause = error instanceof Error ? error.message : String(error);
      // Its own failure ends the execution: the reconciler's archive sweep takes over.
      await scenario.main
        .invoke(HandlerNames.ARCHIVE, {
          action: 'archiveFailed',
          spotId,
          exportId,
          error: { Error: name, Cause: cause },
        })
        .catch(() => undefined);
    }
  }
}
