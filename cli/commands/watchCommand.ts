import type { CliCommand, CommandContext } from '../CliCommand';
import { intervalSecondsOption, requireExportId, requireSpotId } from '../cliOptions';
import type { ExitCode } from '../ExitCode';
import { exitCodeForExport } from '../exitCodeForExport';
import { createProgressRenderer, progressModeFor } from '../progressRenderer';
import { watchExport } from '../watchExport';

const NAME = 'watch';

export const watchCommand: CliCommand = {
  name: NAME,
  summary: 'Follow an export until it finishes, then print its links',
  synopsis: 'watch <exportId> --spot <id> [--interval-seconds <n>]',
  help: `Polls the export's status and shows its progress: on a terminal one line redrawn in place
(status, elapsed time, polls so far, upstream status); otherwise a line whenever the status,
poll count or upstream status changes; with --json one JSON view per change, the last one final.
At the end the export's links are printed one per line. Ctrl-C stops watching (exit 130) and
leaves the export running.

Options:
  --interval-seconds <n>   Seconds between status checks (default 2, at least 1)`,
  options: {
    'interval-seconds': { type: 'string' },
  },
  run: runWatch,
};

async function runWatch(context: CommandContext): Promise<ExitCode> {
  const { io } = context;
  const exportId = requireExportId(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const intervalSeconds = intervalSecondsOption(context.values, NAME);
  const renderer = createProgressRenderer(progressModeFor({ json: context.json, isTTY: io.isTTY }), io);
  const final = await watchExport({
    client: context.client(),
    spotId,
    exportId,
    intervalSeconds,
    io,
    renderer,
  });
  return exitCodeForExport(final);
}
