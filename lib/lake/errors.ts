import { ServiceError } from '../errors/ClassifiedError';
import { isTransientFailure } from '../exports/record/failureReasons';

/** The table was asked and gave no answer: the engine failed the query, refused it, or its answer was unreadable. */
export class TableQueryFailedError extends ServiceError {
  override name = 'TableQueryFailedError';
  /** Athena's or DuckDB's. */
  readonly engine: string;

  constructor(engine: string, detail: string, options?: ErrorOptions) {
    super(`${engine} did not answer the query: ${detail}`, options);
    this.engine = engine;
  }

  /** Passing trouble (throttling, an AWS fault, the network) when its cause is. */
  override get retryable(): boolean {
    return this.cause !== undefined && isTransientFailure(this.cause);
  }
}

/** The query was still running when its time was up (it is stopped where the engine can stop it). */
export class TableQueryTimedOutError extends ServiceError {
  override name = 'TableQueryTimedOutError';
  readonly engine: string;
  readonly queryId: string;
  readonly timeoutMs: number;

  constructor(engine: string, queryId: string, timeoutMs: number, options?: ErrorOptions) {
    super(`${engine} query ${queryId} was still running after ${timeoutMs} ms`, options);
    this.engine = engine;
    this.queryId = queryId;
    this.timeoutMs = timeoutMs;
  }

  override get retryable(): boolean {
    return true;
  }
}
