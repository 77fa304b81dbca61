import { type ArchiveDependencies, archiveExport, failArchive } from '../lib/archive/archiveExport';
import { archiveFileCount } from '../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../lib/exports/record/ExportRecord';
import { type ArchiveTaskOutput, workflowTaskAction } from '../lib/exports/workflow/workflowContract';
import { parseWorkflowTask } from '../lib/exports/workflow/workflowTaskInput';
import { HandlerNames } from '../lib/http/routeTable';
import {
  dynamoDbArchiveRecordsFactory,
  dynamoDbCoverageLedgerFactory,
  dynamoDbExportStoreFactory,
  dynamoDbSuppressionListFactory,
} from '../lib/runtime/adapterFactories/dynamoDbFactories';
import {
  eventBridgeArchiveEventsFactory,
  eventBridgeEventsFactory,
} from '../lib/runtime/adapterFactories/eventBridgeFactories';
import { glueTablePartitionsFactory } from '../lib/runtime/adapterFactories/glueTablePartitionsFactory';
import { partitionRepairFactory } from '../lib/runtime/adapterFactories/partitionRepairFactory';
import { s3ArchiveWriterFactory } from '../lib/runtime/adapterFactories/s3ArchiveWriterFactory';
import { createTaskHandler } from '../lib/runtime/createTaskHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';

/** How much of a task error's cause goes into the FAILED archive's reason. */
const MAX_REASON_CHARS = 300;
const ACTIONS = ['archive', 'archiveFailed'] as const;

/**
 * The workflow's archive tasks: keep a COMPLETED export's files (`archive`), or record the
 * archive FAILED once the workflow stopped retrying (`archiveFailed`). Passing trouble is
 * thrown as `ExportArchiveRetry` for the state machine's Retry. Dependencies undefined: nothing
 * is archived (the local runtime's LOCAL_ARCHIVE=off), and the tasks pass.
 */
export function makeArchiveHandler(runtime: HandlerRuntime<ArchiveDependencies | undefined>) {
  return createTaskHandler(runtime, async (event, deps) => {
    const action = workflowTaskAction(event, ACTIONS);
    if (action === 'archive') {
      const input = parseWorkflowTask('archive', event);
      if (deps === undefined) return taskOutput(input, undefined);
      const result = await archiveExport(deps, input);
      if (result.outcome === 'failed')
        runtime.logger.warn('Archive failed', {
          exportId: input.exportId,
          reason: result.record?.archive?.reason,
        });
      else runtime.logger.info('Archive finished', { exportId: input.exportId, outcome: result.outcome });
      if (result.partitionRepair?.failure !== undefined)
        runtime.logger.warn('Partition repair stopped', { reason: result.partitionRepair.failure });
      return taskOutput(input, result.record);
    }
    if (action === 'archiveFailed') {
      const input = parseWorkflowTask('archiveFailed', event);
      const cause = input.error?.Cause?.slice(0, MAX_REASON_CHARS);
      const reason = `the archive gave up after retries: ${input.error?.Error ?? 'unknown error'}${cause ? ` (${cause})` : ''}`;
      if (deps === undefined) return taskOutput(input, undefined);
      const record = await failArchive(deps, { spotId: input.spotId, exportId: input.exportId, reason });
      runtime.logger.warn('Archive failed', { exportId: input.exportId, reason });
      return taskOutput(input, record);
    }
    throw new UnrecognisedEventError(HandlerNames.ARCHIVE);
  });
}

// The table and the bucket, written; the catalog, for the table's partitions (the export's, and
// those the bucket holds and the catalog lacks, listed from the bucket); the bus, for
// `Export Archived` and a window's `Coverage Gap`. No upstream: the links are the record's.
export const handler = makeArchiveHandler(
  defaultHandlerRuntime({
    store: dynamoDbExportStoreFactory,
    coverage: dynamoDbCoverageLedgerFactory,
    archives: dynamoDbArchiveRecordsFactory,
    suppressions: dynamoDbSuppressionListFactory,
    archiveWriter: s3ArchiveWriterFactory,
    partitions: glueTablePartitionsFactory,
    partitionRepair: partitionRepairFactory,
    archiveEvents: eventBridgeArchiveEventsFactory,
    events: eventBridgeEventsFactory,
  }),
);

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
