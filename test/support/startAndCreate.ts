import type { ExportDependencies } from '../../lib/exports/ExportDependencies';
import { createUpstreamExport } from '../../lib/exports/lifecycle/createUpstreamExport';
import {
  type StartExportCommand,
  type StartExportResult,
  startExport,
} from '../../lib/exports/queue/startExport';

/** A deadline far past any test clock, for create tasks that should not time out. */
export const FAR_DEADLINE = '2099-01-01T00:00:00.000Z';

/** The workflow's create task for an export, as the state machine invokes it. */
export async function runCreateTask(
  deps: ExportDependencies,
  spotId: string,
  exportId: string,
  deadline = FAR_DEADLINE,
): Promise<void> {
  await createUpstreamExport(deps, { action: 'create', spotId, exportId, deadline });
}

/**
 * A start followed by the workflow's create task, as a deployed system does it within a
 * second or two: the answer is the record as it stands once the upstream accepted the create.
 */
export async function startAndCreate(
  deps: ExportDependencies,
  command: StartExportCommand,
): Promise<StartExportResult> {
  const started = await startExport(deps, command);
  await runCreateTask(deps, command.spotId, started.record.exportId);
  const record = await deps.store.getExport(command.spotId, started.record.exportId);
  return { ...started, record: record ?? started.record };
}
