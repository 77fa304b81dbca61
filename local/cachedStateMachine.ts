import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type ExtractedStateMachine, stateMachineDefinitionFromTemplate } from '../infra/extractStateMachine';

/** Where synthesized definitions are kept between runs (the usual home of tool caches). */
export const STATE_MACHINE_CACHE_DIR = 'node_modules/.cache/openweb-exports/state-machine';
/** What the last synthesis was made from, to say why the next one is needed. */
export const LAST_SYNTHESIS_FILE = 'last-synthesis.json';
/** Definitions kept in the cache; older ones are removed after each synthesis. */
export const MAX_CACHED_STATE_MACHINES = 20;
/** Changed files a reason names before it says "and n more". */
const MAX_NAMED_CHANGED_FILES = 3;

export interface CachedStateMachineOptions {
  projectRoot: string;
  /** Default: STATE_MACHINE_CACHE_DIR under the project root. */
  cacheDir?: string;
  /** Called before a synthesis, with why the cache could not answer (see `synthesisReason`). */
  onSynthesize?: (reason: string) => void;
}

/** The stack's state machines, as the cache keeps them. */
export interface SynthesizedStateMachines {
  /** The polling workflow. */
  stateMachine: ExtractedStateMachine;
  /** The erasure workflow. */
  erasureStateMachine: ExtractedStateMachine;
}

export interface LoadedStateMachine extends SynthesizedStateMachines {
  fromCache: boolean;
  /** How long the synthesis took, when there was one. */
  synthesisMs?: number;
}

/** What a synthesis is made from: the stack config and the content of each source file. */
export interface SynthesisInputs {
  /** sha256 of the stack config as JSON. */
  configHash: string;
  /** Path relative to the project root → sha256 of its content. */
  sourceHashes: Record<string, string>;
}

/**
 * The polling and erasure state machines exactly as the stack synthesizes them for this stack config.
 * Synthesis takes seconds, so the result is kept under a key made of the config and the
 * contents of everything the stack is built from (infra/*.ts, lib/, cdk.json and the
 * lockfile): any change there synthesizes again. A cache that cannot be written is skipped.
 */
export async function loadStateMachine(
  rawStackConfig: unknown,
  options: CachedStateMachineOptions,
): Promise<LoadedStateMachine> {
  const cacheDir = options.cacheDir ?? join(options.projectRoot, STATE_MACHINE_CACHE_DIR);
  const inputs = synthesisInputs(rawStackConfig, options.projectRoot);
  const cacheFile = join(cacheDir, `${cacheKeyOf(inputs)}.json`);
  const cached = readCached(cacheFile);
  if (cached !== undefined) return { ...cached, fromCache: true };

  options.onSynthesize?.(synthesisReason(readLastSynthesis(cacheDir), inputs));
  const startedMs = performance.now();
  // Loaded only on a miss: the CDK alone takes seconds to import.
  const { synthesizeStackTemplate } = await import('../infra/synthesizeStackTemplate');
  const template = synthesizeStackTemplate(rawStackConfig ?? {});
  const machines: SynthesizedStateMachines = {
    stateMachine: stateMachineDefinitionFromTemplate(template),
    erasureStateMachine: stateMachineDefinitionFromTemplate(template, { workflow: 'erasure' }),
  };
  const synthesisMs = performance.now() - startedMs;
  writeCached(cacheDir, cacheFile, machines, inputs);
  return { ...machines, fromCache: false, synthesisMs };
}

/** Changes whenever the config or a source the stack is synthesized from changes. */
export function stateMachineCacheKey(rawStackConfig: unknown, projectRoot: string): string {
  return cacheKeyOf(synthesisInputs(rawStackConfig, projectRoot));
}

/** The stack config's hash and each source file's, as a synthesis now would use them. */
export function synthesisInputs(rawStackConfig: unknown, projectRoot: string): SynthesisInputs {
  const sourceHashes: Record<string, string> = {};
  for (const file of stackSourceFiles(projectRoot)) {
    sourceHashes[relative(projectRoot, file)] = sha256(readFileSync(file));
  }
  return { configHash: sha256(JSON.stringify(rawStackConfig ?? {})), sourceHashes };
}

/**
 * Why a synthesis is needed, compared with what the last one was made from: the first one,
 * another stack configuration, or the files that changed (by name), or both.
 */
export function synthesisReason(last: SynthesisInputs | undefined, now: SynthesisInputs): string {
  if (last === undefined) return 'nothing is cached yet (the first start in this checkout)';
  const paths = new Set([...Object.keys(last.sourceHashes), ...Object.keys(now.sourceHashes)]);
  const changed = [...paths].filter((path) => last.sourceHashes[path] !== now.sourceHashes[path]).sort();
  const subjects: string[] = [];
  if (last.configHash !== now.configHash)
    subjects.push('the stack configuration (LOCAL_STACK_CONFIG, else cdk.json)');
  if (changed.length > 0) subjects.push(changed.length === 1 ? 'a source' : `${changed.length} sources`);
  if (subjects.length === 0) return 'no definition is cached for this configuration and these sources';
  const more = changed.length - MAX_NAMED_CHANGED_FILES;
  const named =
    changed.length === 0
      ? ''
      : `: ${changed.slice(0, MAX_NAMED_CHANGED_FILES).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return `${subjects.join(' and ')} changed since the last synthesis${named}`;
}

function cacheKeyOf(inputs: SynthesisInputs): string {
  const hash = createHash('sha256');
  hash.update(inputs.configHash);
  for (const [path, contentHash] of Object.entries(inputs.sourceHashes).sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    hash.update(`\0${path}\0${contentHash}`);
  }
  return hash.digest('hex');
}

function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

function stackSourceFiles(projectRoot: string): string[] {
  const infra = join(projectRoot, 'infra');
  const lib = join(projectRoot, 'lib');
  const infraFiles = readdirSync(infra, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(infra, entry.name));
  const libFiles = readdirSync(lib, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
  const projectFiles = ['cdk.json', 'package-lock.json']
    .map((name) => join(projectRoot, name))
    .filter((file) => existsSync(file));
  return [...infraFiles, ...libFiles, ...projectFiles].sort();
}

function readCached(cacheFile: string): SynthesizedStateMachines | undefined {
  try {
    const value = JSON.parse(readFileSync(cacheFile, 'utf8')) as Partial<SynthesizedStateMachines>;
    return typeof value.stateMachine?.definition?.StartAt === 'string' &&
      typeof value.erasureStateMachine?.definition?.StartAt === 'string'
      ? (value as SynthesizedStateMachines)
      : undefined;
  } catch {
    return undefined;
  }
}

function readLastSynthesis(cacheDir: string): SynthesisInputs | undefined {
  try {
    const value = JSON.parse(readFileSync(join(cacheDir, LAST_SYNTHESIS_FILE), 'utf8')) as SynthesisInputs;
    return typeof value.configHash === 'string' && typeof value.sourceHashes === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeCached(
  cacheDir: string,
  cacheFile: string,
  machines: SynthesizedStateMachines,
  inputs: SynthesisInputs,
): void {
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeAtomically(cacheFile, JSON.stringify(machines));
    writeAtomically(join(cacheDir, LAST_SYNTHESIS_FILE), JSON.stringify(inputs));
    pruneStateMachineCache(cacheDir);
  } catch {
    // A read-only checkout still runs; it synthesizes on every start.
  }
}

/** Renamed into place, so a concurrent start never reads half a file. */
function writeAtomically(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** Every change of the sources adds a definition: only the newest `keep` are kept. */
export function pruneStateMachineCache(cacheDir: string, keep = MAX_CACHED_STATE_MACHINES): void {
  const definitions = readdirSync(cacheDir)
    .filter((name) => /^[0-9a-f]{64}\.json$/.test(name))
    .map((name) => ({ path: join(cacheDir, name), mtimeMs: statSync(join(cacheDir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of definitions.slice(keep)) rmSync(path, { force: true });
}
