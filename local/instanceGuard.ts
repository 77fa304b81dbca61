import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** In the data folder while a local runtime uses it: `{"pid", "startedAt"}`. */
export const DATA_DIR_LOCK_FILE = 'npm-start.lock';

export type DataDirLock = { kind: 'acquired'; release(): void } | { kind: 'held'; pid: number };

/**
 * Claims the data folder for this process, so a second `npm start` on the same folder stops
 * before it opens the table (dynalite's store allows one process) or the simulator's state.
 * A lock whose process is gone (a crash, a kill -9) is taken over.
 */
export function lockDataDir(dataDir: string, now: () => number = Date.now): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(path, JSON.stringify({ pid: process.pid, startedAt: new Date(now()).toISOString() }), {
        flag: 'wx',
      });
      return {
        kind: 'acquired',
        release: () => {
          if (lockHolder(path) === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = lockHolder(path);
      if (pid !== undefined && isRunning(pid)) return { kind: 'held', pid };
      rmSync(path, { force: true });
    }
  }
  const pid = lockHolder(path);
  return { kind: 'held', pid: pid ?? 0 };
}

function lockHolder(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether something already listens on `host:port` (0 is always free). */
export function isPortInUse(port: number, host: string): Promise<boolean> {
  if (port === 0) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(true);
      else reject(error);
    });
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}

/** Whether an error is a listen on a port that is taken. */
export function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}
