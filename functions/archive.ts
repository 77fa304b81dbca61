import { type ArchiveDependencies, archiveExport, failArchive } from '../lib/archive/archiveExport';
import { archiveFileCount } from '../lib/exports/ExportArchive';
import type { ExportRecord } from '../lib/exports/ExportRecord';
import type { ArchiveTaskOutput } from '../lib/exports/pollingWorkflowContract';
import { HandlerNames } from '../lib/http/routeTable';
import { defaultArchiveDependencies } from '../lib/runtime/archiveDependencies';
import { type ArchiveHandlerRuntime, archiveHandlerRuntime } from '../lib/runtime/archiveHandlerRuntime';
import { createHandler } from '../lib/runtime/createExportHandler';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import {
  isTaskAction,
  parseArchiveFailedTaskInput,
  parseArchiveTaskInput,
} from '../lib/runtime/workflowTaskInput';

/** How much of a task error's cause goes into the FAILED archive's reason. */
const MAX_REASON_CHARS = 300;

/**
 * The workflow's archive task: keeps a COMPLETED export's files (`archive`), or records the
 * archive FAILED once the workflow stopped retrying (`archiveFailed`). Passing trouble is
 * thrown as `ExportArchiveRetry` for the state machine's Retry.
 */
export function makeArchiveHandler(
  runtime: ArchiveHandlerRuntime,
  archive: () => ArchiveDependencies | undefined,
) {
  return createHandler(runtime, async (event) => {
    if (isTaskAction(event, 'archive')) {
      const input = parseArchiveTaskInput(event);
      const deps = archive();
      // Only where archiving is switched off (the local runtime's LOCAL_ARCHIVE=off).
      if (deps === undefined) return taskOutput(input, undefined);
      const result = await archiveExport(deps, input);
      if (result.outcome === 'failed')
        runtime.logger.warn('Archive failed', {
          exportId: input.exportId,
          reason: result.record?.archive?.reason,
        });
      else runtime.logger.info('Archive finished', { exportId: input.exportId, outcome: result.outcome });
      return taskOutput(input, result.record);
    }
    if (isTaskAction(event, 'archiveFailed')) {
      const input = parseArchiveFailedTaskInput(event);
      const cause = input.error?.Cause?.slice(0, MAX_REASON_CHARS);
      const reason = `the archive gave up after retries: ${input.error?.Error ?? 'unknown error'}${cause ? ` (${cause})` : ''}`;
      const deps = archive();
      if (deps === undefined) return taskOutput(input, undefined);
      const record = await failArchive(deps, { spotId: input.spotId, exportId: input.exportId, reason });
      runtime.logger.warn('Archive failed', { exportId: input.exportId, reason });
      return taskOutput(input, record);
    }
    throw new UnrecognisedEventError(HandlerNames.ARCHIVE);
  });
}

export const handler = makeArchiveHandler(archiveHandlerRuntime(), defaultArchiveDependencies);

function taskOutput(
  input: { spotId: string; exportId: string },
  record: ExportRecord | undefined,
): ArchiveTaskOutput {
  return {
    spotId: input.spotId,
    exportId: input.exportId,
    archiveStatus: record?.archive?.status ?? 'NONE',
    fileCount: archiveFileCount(record?.archive),
  };
}
