import type { CliCommand, CommandContext } from '../CliCommand';
import { booleanOption, requireExportId, requireSpotId, stringOption } from '../cliOptions';
import { downloadArchive } from '../downloadArchive';
import { ExitCode } from '../ExitCode';

const NAME = 'download';
/** Where files go without --out: the current directory. */
export const DEFAULT_DOWNLOAD_DIR = '.';

export const downloadCommand: CliCommand = {
  name: NAME,
  summary: "Download an export's archived files, verifying each SHA-256",
  synopsis: 'download <exportId> --spot <id> [--out <dir>] [--gunzip]',
  help: `Downloads every file the archive holds for the export into <dir>/<exportId>/, as
<name>.csv.gz (or <name>.csv with --gunzip). Each file is checked against its recorded
SHA-256 while it streams and kept only when it matches. The archive outlives the upstream's
links, which expire a week after the export finished.
With --json, prints each saved file: its path, its size as saved (bytes), the archived
.csv.gz's size and SHA-256 (archivedBytes, sha256) and its rows.
Exits 7 when the archive is not ready (PENDING) or FAILED, 8 when a file does not match.

Options:
  --out <dir>   Where to put the export's folder (default: the current directory)
  --gunzip      Store the CSVs decompressed`,
  options: { out: { type: 'string' }, gunzip: { type: 'boolean' } },
  run: runDownload,
};

async function runDownload(context: CommandContext): Promise<ExitCode> {
  const exportId = requireExportId(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const files = await downloadArchive({
    client: context.client(),
    io: context.io,
    followUp: context.followUp,
    spotId,
    exportId,
    outDir: stringOption(context.values, 'out') ?? DEFAULT_DOWNLOAD_DIR,
    gunzip: booleanOption(context.values, 'gunzip'),
    progress: context.json ? 'none' : context.io.isTTY ? 'tty' : 'plain',
  });
  if (context.json) context.io.stdout.write(`${JSON.stringify({ exportId, files }, null, 2)}\n`);
  return ExitCode.SUCCESS;
}
