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
Exits 0 once the abort is accepted; an export that already finished is an API error (5).`,
  options: {},
  run: runAbort,
};

async function runAbort(context: CommandContext): Promise<ExitCode> {
  const exportId = requireExportId(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const view = await context.client().abortExport(spotId, exportId);
  context.io.stdout.write(
    context.json
      ? `${JSON.stringify(view, null, 2)}\n`
      : `Abort of export ${view.exportId} accepted.\n${formatExportView(view)}`,
  );
  return ExitCode.SUCCESS;
}
