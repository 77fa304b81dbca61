import type { CliCommand, CommandContext } from '../CliCommand';
import {
  intervalSecondsOption,
  reconnectAttemptsOption,
  requireExportId,
  requireSpotId,
} from '../cliOptions';
import type { ExitCode } from '../ExitCode';
import { exitCodeForExport } from '../exitCodeForExport';
import { createProgressRenderer, progressModeFor } from '../progressRenderer';
import { watchExport } from '../watchExport';

const NAME = 'watch';

export const watchCommand: CliCommand = {
  name: NAME,
  summary: 'Follow an export until it finishes, then print its links',
  synopsis: 'watch <exportId> --spot <id> [--interval-seconds <n>] [--reconnect-attempts <n>]',
  help: `Polls the export's status and shows its progress: on a terminal one line redrawn in place
(status, elapsed time, polls so far, upstream status); otherwise a line whenever the status,
poll count or upstream status changes; with --json one JSON view per change, the last one final.
At the end the export's links are printed one per line; the exit code is the outcome:
0 COMPLETED, 3 FAILED, 4 ABORTED. Ctrl-C stops watching (exit 130) and leaves the export running.
When the API cannot be reached or answers 429/5xx (a restarting 'npm start', an outage), the
watch shows "reconnecting (attempt n of 30, next in s)" and tries again, waiting 1 s, 2 s, 4 s…
up to 30 s (about 13 minutes in all); if it gives up (exit 6, or 5 for API errors) the export
keeps running and the message says how to resume watching.

Options:
  --interval-seconds <n>     Seconds between status checks (default 2, at least 1)
  --reconnect-attempts <n>   Failed checks in a row to retry before giving up (default 30, 0 to 1000)`,
  options: {
    'interval-seconds': { type: 'string' },
    'reconnect-attempts': { type: 'string' },
  },
  run: runWatch,
};

async function runWatch(context: CommandContext): Promise<ExitCode> {
  const { io } = context;
  const exportId = requireExportId(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const intervalSeconds = intervalSecondsOption(context.values, NAME);
  const reconnectAttempts = reconnectAttemptsOption(context.values, NAME);
  const renderer = createProgressRenderer(
    progressModeFor({ json: context.json, isTTY: io.isTTY }),
    io,
    context.followUp,
  );
  const final = await watchExport({
    client: context.client(),
    spotId,
    exportId,
    intervalSeconds,
    io,
    renderer,
    reconnectAttempts,
    resumeCommand: context.followUp(`watch ${exportId} --spot ${spotId}`),
  });
  return exitCodeForExport(final);
}
