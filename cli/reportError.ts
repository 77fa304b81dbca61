import { ProblemType } from '../lib/errors/problems';
import { CLI_NAME } from '../lib/settings/localRuntimeLayout';
import type { FollowUpCommand } from './CliCommand';
import type { CliIo } from './CliIo';
import { COMMANDS } from './commands/index';
import { ExitCode } from './ExitCode';
import {
  ApiProblemError,
  ApiUnreachableError,
  ArchiveUnavailableError,
  AwsCredentialsUnavailableError,
  CliInterruptedError,
  CliUsageError,
  DownloadFailedError,
  QueryEngineUnavailableError,
  QueryFailedError,
  QueryRefusedError,
  UnexpectedApiResponseError,
  WatchGaveUpError,
} from './errors';
import { problemKind } from './ProblemDetails';

const HTTP_FORBIDDEN = 403;
const UNEXPECTED_ERROR_EXIT_CODE = 1;

export interface ErrorReportContext {
  json: boolean;
  spotId?: string;
  /** Whether requests were signed with SigV4, for the hint on a 403. */
  signed: boolean;
  /** Printed commands keep the options that reach the same API; without it, none. */
  followUp?: FollowUpCommand;
}

/** Tells the operator what went wrong and returns the exit code for it. */
export function reportError(error: unknown, io: CliIo, context: ErrorReportContext): number {
  if (error instanceof CliUsageError) {
    const help = error.command ? `${CLI_NAME} ${error.command} --help` : `${CLI_NAME} --help`;
    io.stderr.write(`error: ${error.message}\n${usageLine(error.command)}\nRun '${help}' for details.\n`);
    return ExitCode.USAGE;
  }
  if (error instanceof AwsCredentialsUnavailableError) {
    io.stderr.write(`error: ${error.message}\n`);
    return ExitCode.USAGE;
  }
  if (error instanceof ApiProblemError) {
    if (context.json) io.stdout.write(`${JSON.stringify(error.problem, null, 2)}\n`);
    else io.stderr.write(describeProblem(error, context));
    return ExitCode.API_ERROR;
  }
  if (error instanceof UnexpectedApiResponseError) {
    io.stderr.write(`error: ${error.message}\n`);
    return ExitCode.API_ERROR;
  }
  if (error instanceof ApiUnreachableError) {
    io.stderr.write(
      `error: ${error.message}\nIs the API running there? Start the local one with 'npm start', ` +
        'or point --api (or OPENWEB_EXPORTS_API) at a deployed stack.\n',
    );
    return ExitCode.API_UNREACHABLE;
  }
  if (error instanceof ArchiveUnavailableError) {
    io.stderr.write(`error: ${error.message}\n`);
    return ExitCode.ARCHIVE_UNAVAILABLE;
  }
  if (error instanceof DownloadFailedError) {
    io.stderr.write(`error: ${error.message}\n`);
    return ExitCode.DOWNLOAD_FAILED;
  }
  if (error instanceof QueryRefusedError) {
    io.stderr.write(`error: ${error.engine} refused the query: ${error.message}\n`);
    return ExitCode.QUERY_REFUSED;
  }
  if (error instanceof QueryFailedError) {
    io.stderr.write(`error: ${error.engine}: ${error.message}\n`);
    return ExitCode.QUERY_FAILED;
  }
  if (error instanceof QueryEngineUnavailableError) {
    io.stderr.write(`error: ${error.message}\n`);
    return ExitCode.API_UNREACHABLE;
  }
  if (error instanceof WatchGaveUpError) {
    const resume =
      error.resumeCommand ?? followUpOf(context)(`watch ${error.exportId} --spot ${error.spotId}`);
    io.stderr.write(
      `error: ${error.lastError.message}\n` +
        `Stopped watching after ${error.attempts} reconnect attempts; the export keeps running. ` +
        `Resume watching with: ${resume}\n`,
    );
    return error.lastError instanceof ApiUnreachableError ? ExitCode.API_UNREACHABLE : ExitCode.API_ERROR;
  }
  if (error instanceof CliInterruptedError) return ExitCode.INTERRUPTED;
  io.stderr.write(unexpectedErrorReport(error));
  return UNEXPECTED_ERROR_EXIT_CODE;
}

function followUpOf(context: ErrorReportContext): FollowUpCommand {
  return context.followUp ?? ((words) => `${CLI_NAME} ${words}`);
}

/** `error: <message>` as every other error says it, then where it happened: this one is a bug. */
function unexpectedErrorReport(error: unknown): string {
  if (!(error instanceof Error)) return `error: ${String(error)} (unexpected: a bug of the CLI)\n`;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return `error: ${error.message} (an unexpected ${error.name}: a bug of the CLI; please report it with these lines)\n${frames.map((frame) => `${frame}\n`).join('')}`;
}

/** The synopsis of the command the error is about, or of the CLI with its command names. */
function usageLine(commandName: string | undefined): string {
  const command = COMMANDS.find((candidate) => candidate.name === commandName);
  if (command !== undefined) return `Usage: ${CLI_NAME} ${command.synopsis}`;
  return `Usage: ${CLI_NAME} <command> [options]   (commands: ${COMMANDS.map(({ name }) => name).join(', ')})`;
}

function describeProblem(error: ApiProblemError, context: ErrorReportContext): string {
  const { problem } = error;
  const lines = [problem.detail ? `${problem.title}: ${problem.detail}` : problem.title];
  for (const field of problem.errors ?? []) lines.push(`  ${field.field}: ${field.message}`);
  if (problemKind(problem) === ProblemType.SPOT_BUSY && problem.activeExportId) {
    const spot = context.spotId ? ` --spot ${context.spotId}` : '';
    lines.push(
      `  active export: ${problem.activeExportId} (follow it: ${followUpOf(context)(`watch ${problem.activeExportId}${spot}`)})`,
    );
  }
  if (error.httpStatus === HTTP_FORBIDDEN) {
    lines.push(
      context.signed
        ? '  The request was signed: check that these AWS credentials may invoke this API (execute-api:Invoke).'
        : '  The API may require IAM authorization: pass --sigv4 (and --region) to sign requests.',
    );
  }
  return `${lines.join('\n')}\n`;
}
