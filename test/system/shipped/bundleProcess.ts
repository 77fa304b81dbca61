import { type ChildProcess, fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What the child runs: it imports the bundle as Lambda's Node.js runtime does (`index.handler`
 * of an ES module), then invokes the handler once per message, one at a time, like a warm
 * container. `clockOffsetMs` shifts the process's clock (a container running later than the
 * others) without touching the bundle.
 */
const RUNNER_SOURCE = `
import { pathToFileURL } from 'node:url';
const [bundlePath, clockOffset, timeoutMs, functionName] = process.argv.slice(2);
const offset = Number(clockOffset);
if (offset !== 0) {
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(RealDate.now() + offset); else super(...args); }
    static now() { return RealDate.now() + offset; }
  }
  globalThis.Date = ShiftedDate;
}
const { handler } = await import(pathToFileURL(bundlePath).href);
let invocations = 0;
process.on('message', async ({ id, event }) => {
  invocations += 1;
  const deadline = Date.now() + Number(timeoutMs);
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:' + process.env.AWS_REGION + ':123456789012:function:' + functionName,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: functionName + '-' + invocations,
    logGroupName: '/aws/lambda/' + functionName,
    logStreamName: 'shipped-bundle-check',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done() {}, fail() {}, succeed() {},
  };
  try {
    const result = await handler(event, context);
    process.send({ id, result: result ?? null });
  } catch (error) {
    process.send({ id, error: { name: error?.name, message: error?.message } });
  }
});
process.send({ ready: true });
`;

export const RUNNER_FILE = 'invoke-bundle.mjs';

/** Writes the runner beside the bundles (outside the project, so nothing resolves from its node_modules). */
export async function writeRunner(directory: string): Promise<string> {
  const file = join(directory, RUNNER_FILE);
  await writeFile(file, RUNNER_SOURCE);
  return file;
}

export type Invocation = { result: unknown; error?: never } | { error: { name?: string; message?: string } };

export interface BundleProcessOptions {
  runner: string;
  bundleFile: string;
  functionName: string;
  /** The whole environment of the process: nothing is inherited but PATH. */
  environment: Record<string, string>;
  timeoutSeconds: number;
  clockOffsetMs?: number;
  cwd: string;
}

/** One function's bundle in its own Node.js process, invoked over IPC. */
export class BundleProcess {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, (invocation: Invocation) => void>();
  readonly #ready: Promise<void>;
  /** The process's stdout and stderr (the function's logs), for failure messages. */
  output = '';
  #nextId = 0;

  constructor(options: BundleProcessOptions) {
    this.#child = fork(
      options.runner,
      [
        options.bundleFile,
        String(options.clockOffsetMs ?? 0),
        String(options.timeoutSeconds * 1000),
        options.functionName,
      ],
      {
        cwd: options.cwd,
        env: { PATH: process.env.PATH ?? '', ...options.environment },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        // Lambda loads the bundle with plain node: no loaders or flags of the test runner.
        execArgv: [],
      },
    );
    this.#child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
    this.#child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
    this.#ready = new Promise((resolve, reject) => {
      this.#child.once('exit', (code) => {
        const message = `${options.functionName} exited with ${code}:\n${this.output}`;
        reject(new Error(message));
        // Lambda reports a crashed runtime as the invocation's error.
        for (const settle of this.#pending.values())
          settle({ error: { name: 'Runtime.ExitError', message } });
      });
      this.#child.on('message', (message: { ready?: true; id?: number } & Invocation) => {
        if (message.ready === true) resolve();
        else if (message.id !== undefined) this.#pending.get(message.id)?.(message);
      });
    });
    // Seen by the next invoke; not an unhandled rejection when the process ends after its last one.
    this.#ready.catch(() => undefined);
  }

  /** The handler's result, or the error it threw (by name and message, as Lambda reports it). */
  async invoke(event: unknown): Promise<Invocation> {
    await this.#ready;
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, (invocation) => {
        this.#pending.delete(id);
        resolve(invocation);
      });
      this.#child.send({ id, event });
    });
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.kill();
    await exited;
  }
}
