import type { CliCommand, CommandContext } from '../CliCommand';
import { requireExportId, requireSpotId } from '../cliOptions';
import type { ExitCode } from '../ExitCode';
import { exitCodeForExport } from '../exitCodeForExport';
import { formatExportView } from '../formatExportView';

const NAME = 'status';

export const statusCommand: CliCommand = {
  name: NAME,
  summary: 'Show one export: its status, progress and links',
  synopsis: 'status <exportId> --spot <id>',
  help: `Prints the export as the API knows it; the API refreshes it from OpenWeb when it is stale.
Exits 3 if the export FAILED and 4 if it was ABORTED, so scripts can branch on the outcome.`,
  options: {},
  run: runStatus,
};

async function runStatus(context: CommandContext): Promise<ExitCode> {
  const exportId = requireExportId(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const view = await context.client().getExport(spotId, exportId);
  context.io.stdout.write(context.json ? `${JSON.stringify(view, null, 2)}\n` : formatExportView(view));
  return exitCodeForExport(view);
}
