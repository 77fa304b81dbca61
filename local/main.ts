// `npm start`: the whole system in this process on loopback (see startLocalRuntime).
import { performance } from 'node:perf_hooks';
import { ConfigError } from '../lib/config';
import { cdkJsonStackConfig } from './cdkJsonStackConfig';
import { LocalRuntimeConfigError, LocalRuntimeInUseError } from './errors';
import { parseLocalRuntimeSettings } from './localRuntimeSettings';
import { LOCAL_PROJECT_ROOT } from './projectRoot';
import { readyBanner } from './readyBanner';
import type { LocalRuntime } from './startLocalRuntime';

/** Past this, a stop that hangs is abandoned and the process exits with an error. */
const STOP_TIMEOUT_MS = 20_000;
const EXIT_INTERRUPTED = 130;

// Known and harmless here (see docs/local.md, Node versions): the lockfile pins SDK releases that run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const say = (line: string) => console.log(line);
let runtime: LocalRuntime | undefined;
let stopRequested = false;

async function stop(): Promise<void> {
  say('Stopping…');
  const timeout = setTimeout(() => {
    console.error(`Did not stop within ${STOP_TIMEOUT_MS / 1000} s; exiting anyway.`);
    process.exit(1);
  }, STOP_TIMEOUT_MS);
  try {
    await runtime?.stop();
    say('Stopped.');
    process.exit(0);
  } catch (error) {
    console.error('Stopping failed:', error);
    process.exit(1);
  } finally {
    clearTimeout(timeout);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second Ctrl-C means now.
    if (stopRequested) process.exit(EXIT_INTERRUPTED);
    stopRequested = true;
    if (runtime !== undefined) void stop();
  });
}

try {
  const settings = parseLocalRuntimeSettings(process.env, {
    cwd: process.cwd(),
    projectRoot: LOCAL_PROJECT_ROOT,
    cdkJsonStackConfig: cdkJsonStackConfig(LOCAL_PROJECT_ROOT),
  });
  say('Starting the openweb-exports local runtime…');
  // Loaded after that line: the runtime's modules (SDK clients, dynalite, the S3 stand-in) take seconds.
  const { startLocalRuntime } = await import('./startLocalRuntime');
  runtime = await startLocalRuntime({ settings, env: process.env, say });
  // One write, so whoever reads the output gets the banner whole.
  say(
    readyBanner({
      runtime,
      timeScale: settings.timeScale,
      secretsFile: settings.secretsFile,
      startupMs: performance.now(),
      nowMs: Date.now(),
    }).join('\n'),
  );
  if (stopRequested) await stop();
} catch (error) {
  if (
    error instanceof LocalRuntimeConfigError ||
    error instanceof LocalRuntimeInUseError ||
    error instanceof ConfigError
  ) {
    console.error(error.message);
  } else {
    console.error('The local runtime could not start:', error);
  }
  process.exit(1);
}
