// The `openweb-exports` process: real terminal, network and clock around runCli.
import { setTimeout as sleep } from 'node:timers/promises';
import { outputUntilClosed } from './outputUntilClosed';
import { runCli } from './runCli';

const interrupt = new AbortController();
// The first Ctrl-C stops the command cleanly (exit 130); a second one gets Node's default.
process.once('SIGINT', () => interrupt.abort());
// A reader that stops reading (`| head`) stops the command as a Ctrl-C would, without a trace.
const stdout = outputUntilClosed(process.stdout, () => interrupt.abort());

process.exitCode = await runCli(process.argv.slice(2), {
  stdout,
  stderr: process.stderr,
  isTTY: process.stdout.isTTY === true,
  columns: process.stdout.columns,
  env: process.env,
  fetch: globalThis.fetch,
  sleep: (milliseconds, signal) => sleep(milliseconds, undefined, signal ? { signal } : {}),
  now: Date.now,
  signal: interrupt.signal,
});
