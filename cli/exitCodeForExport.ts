import { ExportStatus } from '../lib/exports/record/ExportStatus';
import { ExitCode } from './ExitCode';
import type { ExportView } from './ExportView';

/** How an export's state ends the process: a finished failure or abort is not a success. */
export function exitCodeForExport(view: Pick<ExportView, 'status'>): ExitCode {
  if (view.status === ExportStatus.FAILED) return ExitCode.EXPORT_FAILED;
  if (view.status === ExportStatus.ABORTED) return ExitCode.EXPORT_ABORTED;
  return ExitCode.SUCCESS;
}
