import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

// The banner's first and last lines: the URL is read once the whole banner is out.
const READY_BANNER = /ready at (http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ctrl-C stops\./;
/** A started process that outlives its test is killed this hard. */
const KILL_SIGNAL = 'SIGKILL';

const running = new Set<ChildProcess>();

export interface ExitResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** A child process whose output is collected and which the suite can always kill. */
export interface CollectedProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<ExitResult>;
}

/** Spawns `node <args>` in the project with `env` added, recording it for killAllChildProcesses(). */
export function spawnNode(args: string[], env: Record<string, string>): CollectedProcess {
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<ExitResult>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      // Let the pipes drain what the process wrote last.
      setImmediate(() => resolve({ code, signal, output }));
    });
  });
  return { child, output: () => output, exited };
}

export interface RuntimeProcess extends CollectedProcess {
  apiUrl: string;
  /** SIGTERM, then the exit. */
  stop(): Promise<ExitResult>;
}

/** Runs the local runtime as `npm start` does and waits (bounded) for its ready line. */
export async function startRuntimeProcess(
  env: Record<string, string>,
  readyTimeoutMs: number,
): Promise<RuntimeProcess> {
  const started = spawnNode(['--import', 'tsx', 'local/main.ts'], env);
  const apiUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      started.child.kill(KILL_SIGNAL);
      reject(new Error(`The runtime was not ready within ${readyTimeoutMs} ms:\n${started.output()}`));
    }, readyTimeoutMs);
    const onData = () => {
      const match = READY_BANNER.exec(started.output());
      if (match === null) return;
      clearTimeout(timer);
      started.child.stdout?.off('data', onData);
      resolve(match[1] as string);
    };
    started.child.stdout?.on('data', onData);
    void started.exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`The runtime exited (${code}) before it was ready:\n${started.output()}`));
    });
  });
  return {
    ...started,
    apiUrl,
    stop: () => {
      started.child.kill('SIGTERM');
      return started.exited;
    },
  };
}

/** For afterAll/afterEach: whatever still runs is killed, even when a test failed halfway. */
export async function killAllChildProcesses(): Promise<void> {
  const exits = [...running].map(
    (child) =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill(KILL_SIGNAL);
      }),
  );
  await Promise.all(exits);
}

/** `work`, or an error naming `what` once `timeoutMs` passed without it. */
export function within<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} took longer than ${timeoutMs} ms`)), timeoutMs),
    ),
  ]);
}
