import type { Writable } from 'node:stream';
import type { CliOutput } from './CliIo';

/**
 * The process's stdout for the CLI, ready for a reader that goes away (`| head`, `| true`):
 * once a write fails with EPIPE, later writes are dropped and `onClosed` runs once, instead of
 * the process dying on an unhandled stream error. Any other stream error is thrown as before.
 */
export function outputUntilClosed(stream: Writable, onClosed: () => void): CliOutput {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (closed) return;
    closed = true;
    onClosed();
  });
  return { write: (text: string) => (closed ? false : stream.write(text)) };
}
