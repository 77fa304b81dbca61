import type { CliIo } from '../../../../cli/CliIo';
import { REQUESTED_AT } from './exportViews';

export interface TestIo extends CliIo {
  /** Everything written to stdout so far. */
  stdoutText(): string;
  stderrText(): string;
  /** The delays the CLI asked to sleep, in milliseconds. */
  sleeps: number[];
}

/**
 * A fake terminal and clock for `runCli`: output is captured, sleeping returns at once and
 * moves the clock forward, the network is the real one (loopback) unless `fetch` is replaced.
 */
export function createTestIo(overrides: Partial<CliIo> = {}): TestIo {
  let stdout = '';
  let stderr = '';
  let clockMs = Date.parse(REQUESTED_AT);
  const sleeps: number[] = [];
  return {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    isTTY: false,
    env: {},
    fetch: globalThis.fetch,
    sleep: async (milliseconds: number) => {
      sleeps.push(milliseconds);
      clockMs += milliseconds;
    },
    now: () => clockMs,
    ...overrides,
    stdoutText: () => stdout,
    stderrText: () => stderr,
    sleeps,
  };
}
