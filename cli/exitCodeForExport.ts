import { ExportStatus } from '../lib/exports/record/ExportStatus';
import type { ExportView } from '../lib/http/exportViewSchema';
import { ExitCode } from './ExitCode';

/** How an export's state ends the process: a finished failure or abort is not a success. */
export function exitCodeForExport(view: Pick<ExportView, 'status'>): ExitCode {
  if (view.status === ExportStatus.FAILED) return ExitCode.EXPORT_FAILED;
  if (view.status === ExportStatus.ABORTED) return ExitCode.EXPORT_ABORTED;
  return ExitCode.SUCCESS;
}
