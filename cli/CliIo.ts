import type { AwsCredentialsProvider } from './AwsCredentials';
import type { QueryEngine } from './query/QueryEngine';
import type { QueryTarget } from './query/QueryTarget';

export interface CliOutput {
  write(text: string): unknown;
}

/** Everything the CLI touches outside itself, so it runs in tests without a terminal, network or clock. */
export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  /** Whether stdout is an interactive terminal: progress is then redrawn in place. */
  isTTY: boolean;
  /** Width of the terminal, to keep a redrawn line from wrapping. */
  columns?: number;
  env: Readonly<Record<string, string | undefined>>;
  fetch: typeof fetch;
  /** Resolves after the delay; may reject early once `signal` aborts. */
  sleep: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
  /** Credentials for SigV4; the default AWS credential chain when absent. */
  awsCredentials?: AwsCredentialsProvider;
  /** Builds the engine `query` runs on; Athena or DuckDB per the options when absent (cli/query/openQueryEngine.ts). */
  openQueryEngine?: (target: QueryTarget, io: CliIo) => Promise<QueryEngine>;
}
