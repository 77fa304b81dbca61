import { ExportStatus } from '../../lib/exports/record/ExportStatus';
import type { CliCommand, CommandContext } from '../CliCommand';
import { requireExportId, requireSpotId } from '../cliOptions';
import { ExitCode } from '../ExitCode';
import { formatExportView } from '../formatExportView';

const NAME = 'abort';

export const abortCommand: CliCommand = {
  name: NAME,
  summary: 'Abort an export that is still running',
  synopsis: 'abort <exportId> --spot <id>',
  help: `Asks the API to abort the export upstream; it becomes ABORTING, then ABORTED.
Exits 0 once the abort is accepted, or when the export was ABORTED already (nothing is sent
then); an export that COMPLETED or FAILED is an API error (5).`,
  options: {},
  run: runAbort,
};

async function runAbort(context: CommandContext): Promise<ExitCode> {
  const exportId = requireExportId(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const client = context.client();
  // The API answers a repeated abort with the aborted export, as it answered the first: only
  // the state before says whether this abort did anything.
  const before = await client.getExport(spotId, exportId);
  const alreadyAborted = before.status === ExportStatus.ABORTED;
  const view = alreadyAborted ? before : await client.abortExport(spotId, exportId);
  const headline = alreadyAborted
    ? `Export ${view.exportId} was already ABORTED${view.completedAt ? ` (at ${view.completedAt})` : ''}; nothing to abort.`
    : `Abort of export ${view.exportId} accepted.`;
  context.io.stdout.write(
    context.json ? `${JSON.stringify(view, null, 2)}\n` : `${headline}\n${formatExportView(view)}`,
  );
  return ExitCode.SUCCESS;
}
