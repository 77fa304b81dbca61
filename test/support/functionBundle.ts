import { join } from 'node:path';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { FUNCTION_RUNTIME, PROJECT_ROOT } from '../../infra/ExportFunction';
import { FUNCTION_BUNDLING } from '../../infra/functionBundling';
import { type HandlerName, HandlerNames, handlerEntryPath } from '../../lib/http/routeTable';

/** The file the stack's ESM bundles are written to (what Lambda loads as `index.handler`). */
export const BUNDLE_FILE = 'index.mjs';

export interface FunctionBundle {
  /** Absolute path of the bundle's `index.mjs`. */
  file: string;
  metafile: Metafile;
}

/**
 * Builds one function exactly as the stack does: the stack's bundling options
 * (infra/functionBundling.ts) turned into the esbuild options aws-cdk-lib passes, for the
 * runtime's Node.js target. An option this mapping does not know is refused, so a new
 * bundling setting in the stack cannot silently make the checks build something else.
 */
export function buildFunctionBundle(handler: HandlerName, outdir: string): Promise<FunctionBundle> {
  return buildBundleLikeFunctions(handlerEntryPath(handler), outdir);
}

/**
 * Builds any entry file (relative to the project root) with the very options of the function
 * bundles, e.g. a benchmark's reference module, so it is measured on the same terms.
 */
export async function buildBundleLikeFunctions(entryPath: string, outdir: string): Promise<FunctionBundle> {
  const file = join(outdir, BUNDLE_FILE);
  const result = await build({
    ...esbuildOptionsFor(FUNCTION_BUNDLING),
    entryPoints: [join(PROJECT_ROOT, entryPath)],
    absWorkingDir: PROJECT_ROOT,
    outfile: file,
    metafile: true,
    logLevel: 'silent',
  });
  return { file, metafile: result.metafile };
}

/** Node.js major of the function runtime, as aws-cdk-lib derives esbuild's target from it. */
export function esbuildTarget(runtimeName: string = FUNCTION_RUNTIME.name): string {
  const major = /nodejs(\d+)/.exec(runtimeName)?.[1];
  if (major === undefined) throw new Error(`Not a Node.js runtime: ${runtimeName}`);
  return `node${major}`;
}

const MAPPED = new Set<keyof BundlingOptions>([
  'format',
  'banner',
  'mainFields',
  'minify',
  'keepNames',
  'sourceMap',
  'sourcesContent',
  'externalModules',
]);

export function esbuildOptionsFor(bundling: Readonly<BundlingOptions>): BuildOptions {
  const unknown = Object.keys(bundling).filter((key) => !MAPPED.has(key as keyof BundlingOptions));
  if (unknown.length > 0) {
    throw new Error(`The bundle builder does not map these bundling options yet: ${unknown.join(', ')}`);
  }
  return {
    bundle: true,
    platform: 'node',
    target: esbuildTarget(),
    ...(bundling.format !== undefined && { format: bundling.format }),
    ...(bundling.banner !== undefined && { banner: { js: bundling.banner } }),
    ...(bundling.mainFields !== undefined && { mainFields: bundling.mainFields }),
    minify: bundling.minify === true,
    keepNames: bundling.keepNames === true,
    // aws-cdk-lib passes a bare --sourcemap: a linked .map file beside the bundle.
    ...(bundling.sourceMap === true && { sourcemap: 'linked' as const }),
    ...(bundling.sourcesContent === false && { sourcesContent: false }),
    // Unset, aws-cdk-lib leaves the runtime's own SDK out of the bundle.
    external: bundling.externalModules ?? ['@aws-sdk/*'],
  };
}

/** The most a function's minified bundle may weigh: module init grows with it. */
export const MAX_BUNDLE_BYTES = 600 * 1024;
/**
 * The archive function also writes Parquet (hyparquet-writer and hysnappy, about 65 KB minified)
 * and registers partitions (the Glue client); the erasure task writes the same Parquet files again
 * without an erased user and counts the user's rows left in the table (the Athena client, about
 * 17 KB). They alone may weigh up to this.
 */
export const MAX_ARCHIVE_BUNDLE_BYTES = 700 * 1024;

/** The bundle size goal of one function (`test/integration/infra/lambdaBundles.test.ts`, `npm run bench:coldstart`). */
export function maxBundleBytes(handler: HandlerName): number {
  return handler === HandlerNames.ARCHIVE || handler === HandlerNames.ERASURE_TASK
    ? MAX_ARCHIVE_BUNDLE_BYTES
    : MAX_BUNDLE_BYTES;
}
