import { CLI_NAME, DEFAULT_LOCAL_API_URL } from '../lib/settings/localRuntimeLayout';
import type { CliCommand } from './CliCommand';

const GLOBAL_OPTIONS_HELP = `Global options (every command, before or after its name):
  --api <url>        API base URL (default: $OPENWEB_EXPORTS_API, else ${DEFAULT_LOCAL_API_URL},
                     the local runtime of 'npm start')
  --spot <id>        The spot, sp_... (default: $OPENWEB_SPOT_ID); coverage and list take it
                     repeated, the other commands refuse a second one
  --json             Machine output on stdout: one JSON document (watch: one JSON line per change).
                     Run the CLI as '${CLI_NAME}' or 'npm run -s cli --' to pipe it: plain
                     'npm run cli --' prints its own lines on stdout first
  --sigv4            Sign requests with AWS SigV4 from the default credential chain; automatic
                     for https://<id>.execute-api.<region>.amazonaws.com
  --region <region>  Region to sign for when the host does not name one (default: $AWS_REGION)
  -h, --help         Show help`;

const EXIT_CODES_HELP = `Exit codes:
  0    success: the request was accepted, or the export COMPLETED (or is still running)
  1    unexpected internal error
  2    usage or configuration error (bad arguments, no AWS credentials to sign with)
  3    the export FAILED (backfill: a window ended as a gap)
  4    the export (or backfill) was ABORTED
  5    the API answered with an error: 'title: detail' on stderr (with --json the problem
       document on stdout)
  6    the API could not be reached (query: Athena, or the local engine could not be loaded)
  7    download: the archive is not ready (PENDING), FAILED, or the export did not complete
  8    download: a file did not match its SHA-256, or could not be written (nothing partial is kept)
  9    query: the engine failed the query: bad SQL, a limit reached (its message on stderr)
  10   coverage: the range has gaps (windows given up on); they are listed with their reasons;
       fleet: a spot has gaps in the last 30 days (and none is stale)
  11   query: refused, not a read-only question about the archive (a write, DDL, ATTACH, SET,
       or a file outside the archive); nothing was written, nothing outside the archive read
  12   fleet: a spot is stale (behind its freshness target: data stopped arriving)
  130  interrupted (Ctrl-C, or stdout closed by its reader, e.g. '| head'); a running export is
       left running`;

/** The short form of the global options a command's help ends with; the general help explains them. */
const GLOBAL_OPTIONS_SYNOPSIS = '[--api <url>] [--spot <id>] [--json] [--sigv4] [--region <region>]';

export function generalUsage(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const list = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n');
  return `Usage: ${CLI_NAME} <command> [options]

Starts, follows and aborts OpenWeb comment exports through the openweb-exports HTTP API,
run locally or deployed to AWS, and queries their archive (DuckDB locally, Athena in AWS).

Commands:
${list}

Run '${CLI_NAME} <command> --help' for a command's options.

${GLOBAL_OPTIONS_HELP}

${EXIT_CODES_HELP}
`;
}

/** A command's own help: its synopsis, what it does and its options; the rest is in the general help. */
export function commandUsage(command: CliCommand): string {
  return `Usage: ${CLI_NAME} ${command.synopsis}

${command.summary}.
${command.help}

Global options: ${GLOBAL_OPTIONS_SYNOPSIS}
Run '${CLI_NAME} --help' for what they do and for every exit code.
`;
}
