import { ExportStatus } from '../../lib/exports/record/ExportStatus';
import { IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_CHARS } from '../../lib/http/readIdempotencyKey';
import type { CliCommand, CommandContext } from '../CliCommand';
import {
  booleanOption,
  intervalSecondsOption,
  reconnectAttemptsOption,
  rejectPositionals,
  requireSpotId,
  stringOption,
} from '../cliOptions';
import { downloadArchive, waitForArchive } from '../downloadArchive';
import { ExitCode } from '../ExitCode';
import { CliUsageError } from '../errors';
import { exitCodeForExport } from '../exitCodeForExport';
import { formatExportView } from '../formatExportView';
import { offsetInstantNotes } from '../instantOption';
import { createProgressRenderer, ProgressMode, progressModeFor } from '../progressRenderer';
import { startExportBody } from '../startExportBody';
import { watchExport } from '../watchExport';

const NAME = 'start';

export const startCommand: CliCommand = {
  name: NAME,
  summary: 'Start an export of a date range or a conversation',
  synopsis:
    'start --spot <id> (--from <time> --until <time> | --last <duration> | --conversation <id>) [options]',
  help: `Asks the API to export a spot's comments and prints the accepted export (exit 0).
With --wait, follows it like 'watch' and exits with its outcome: 0 COMPLETED, 3 FAILED,
4 ABORTED.

Options:
  --from <time>                 Start of the range: 2026-01-31T00:00:00Z, 2026-01-31 (midnight UTC)
                                or with an offset, 2026-01-31T02:00:00+02:00 (sent in UTC, and said)
  --until <time>                End of the range (exclusive), same format
  --last <duration>             The range ending now, as an ISO 8601 duration: PT6H, P1D, P1DT12H, P1W
  --conversation <id>           One conversation instead of a range: <spotId>_<postId>
  --delimiter <char>            CSV delimiter: , ; | or tab
  --max-records-in-file <n>     Split the CSV into files of at most n records
  --idempotency-key <key>       Repeat a start safely: the same key returns the same export
  --wait                        Follow the export until it finishes (see 'watch')
  --interval-seconds <n>        With --wait, seconds between status checks (default 2, at least 1)
  --download <dir>              With --wait, once the export COMPLETED and its files are archived,
                                download them into <dir>/<exportId>/ (see 'download')
  --reconnect-attempts <n>      With --wait, failed checks in a row to retry (default 30; see 'watch')`,
  options: {
    from: { type: 'string' },
    until: { type: 'string' },
    last: { type: 'string' },
    conversation: { type: 'string' },
    delimiter: { type: 'string' },
    'max-records-in-file': { type: 'string' },
    'idempotency-key': { type: 'string' },
    wait: { type: 'boolean' },
    'interval-seconds': { type: 'string' },
    download: { type: 'string' },
    'reconnect-attempts': { type: 'string' },
  },
  run: runStart,
};

async function runStart(context: CommandContext): Promise<ExitCode> {
  const { io, values } = context;
  rejectPositionals(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const body = startExportBody(values, spotId, io.now());
  for (const note of offsetInstantNotes(values, ['from', 'until'])) io.stderr.write(`${note}\n`);
  const wait = booleanOption(values, 'wait');
  for (const option of ['interval-seconds', 'reconnect-attempts']) {
    if (!wait && stringOption(values, option) !== undefined) {
      throw new CliUsageError(`--${option} only applies with --wait`, NAME);
    }
  }
  const downloadDir = stringOption(values, 'download');
  if (!wait && downloadDir !== undefined)
    throw new CliUsageError('--download only applies with --wait', NAME);
  if (downloadDir === '') throw new CliUsageError('--download needs a directory', NAME);
  const intervalSeconds = intervalSecondsOption(values, NAME);
  const reconnectAttempts = reconnectAttemptsOption(values, NAME);
  const idempotencyKey = stringOption(values, 'idempotency-key');
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    throw new CliUsageError(
      `--idempotency-key must be 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} printable ASCII characters`,
      NAME,
    );
  }

  const client = context.client();
  const view = await client.startExport(spotId, body, idempotencyKey);

  if (!wait) {
    if (context.json) io.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
    else {
      io.stdout.write(`Started export ${view.exportId} for spot ${spotId}.\n${formatExportView(view)}`);
      io.stdout.write(`Follow it with: ${context.followUp(`watch ${view.exportId} --spot ${spotId}`)}\n`);
    }
    return ExitCode.SUCCESS;
  }
  const mode = progressModeFor({ json: context.json, isTTY: io.isTTY });
  if (mode !== ProgressMode.JSON) io.stdout.write(`Started export ${view.exportId} for spot ${spotId}.\n`);
  const final = await watchExport({
    client,
    spotId,
    exportId: view.exportId,
    intervalSeconds,
    io,
    renderer: createProgressRenderer(mode, io, context.followUp),
    initialView: view,
    reconnectAttempts,
    resumeCommand: context.followUp(`watch ${view.exportId} --spot ${spotId}`),
  });
  if (downloadDir === undefined || final.status !== ExportStatus.COMPLETED) return exitCodeForExport(final);
  await waitForArchive({
    client,
    io,
    spotId,
    exportId: view.exportId,
    intervalSeconds,
    followUp: context.followUp,
  });
  await downloadArchive({
    client,
    io,
    followUp: context.followUp,
    spotId,
    exportId: view.exportId,
    outDir: downloadDir,
    gunzip: false,
    progress: mode === ProgressMode.JSON ? 'none' : mode === ProgressMode.TTY ? 'tty' : 'plain',
  });
  return ExitCode.SUCCESS;
}
