import type { ProblemDetails } from './ProblemDetails';

/** Base of the CLI's own errors: each maps to one exit code. */
export class CliError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad arguments or a missing setting: the command line has to change. */
export class CliUsageError extends CliError {
  /** The command whose usage applies, for the `--help` hint. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.command = command;
  }
}

/** SigV4 signing was needed but no AWS credentials could be found. */
export class AwsCredentialsUnavailableError extends CliError {}

/** The API answered with an error status. */
export class ApiProblemError extends CliError {
  readonly problem: ProblemDetails;
  readonly httpStatus: number;

  constructor(problem: ProblemDetails, httpStatus: number) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.problem = problem;
    this.httpStatus = httpStatus;
  }
}

/** The API answered with success but a body that is not what the command expects. */
export class UnexpectedApiResponseError extends CliError {}

/** No answer from the API: refused, unresolvable, reset or timed out. */
export class ApiUnreachableError extends CliError {
  readonly apiUrl: string;

  constructor(apiUrl: string, reason: string, options?: ErrorOptions) {
    super(`cannot reach the API at ${apiUrl}: ${reason}`, options);
    this.apiUrl = apiUrl;
  }
}

/** Ctrl-C: the command stops, whatever it started keeps running. */
export class CliInterruptedError extends CliError {
  constructor() {
    super('interrupted');
  }
}

/** The export's archive cannot be downloaded (yet): not ARCHIVED. */
export class ArchiveUnavailableError extends CliError {}

/** A file could not be downloaded, failed its SHA-256 check, or could not be written. */
export class DownloadFailedError extends CliError {}

/** A watch stopped after the API failed too many times in a row; the export itself keeps running. */
export class WatchGaveUpError extends CliError {
  readonly lastError: ApiUnreachableError | ApiProblemError;
  readonly exportId: string;
  readonly spotId: string;
  readonly attempts: number;
  readonly resumeCommand: string | undefined;

  constructor(
    lastError: ApiUnreachableError | ApiProblemError,
    context: { exportId: string; spotId: string; attempts: number; resumeCommand?: string },
  ) {
    super(`stopped watching after ${context.attempts} reconnect attempts: ${lastError.message}`, {
      cause: lastError,
    });
    this.lastError = lastError;
    this.exportId = context.exportId;
    this.spotId = context.spotId;
    this.attempts = context.attempts;
    this.resumeCommand = context.resumeCommand;
  }
}

/** The query engine refused the query or failed it: bad SQL, an unknown table, a limit reached. */
export class QueryFailedError extends CliError {
  /** `Athena` or `DuckDB`. */
  readonly engine: string;

  constructor(engine: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.engine = engine;
  }
}

/**
 * The query is not a question about the archive: a statement that writes, defines, attaches or
 * sets something, or one that reads a file outside the archive. Refused before it changed anything.
 */
export class QueryRefusedError extends QueryFailedError {}

/** The query engine could not be reached (Athena over the network) or loaded (DuckDB's native library). */
export class QueryEngineUnavailableError extends CliError {}
