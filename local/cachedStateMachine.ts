import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type ExtractedStateMachine, stateMachineDefinitionFromTemplate } from '../infra/extractStateMachine';

/** Where synthesized definitions are kept between runs (the usual home of tool caches). */
export const STATE_MACHINE_CACHE_DIR = 'node_modules/.cache/openweb-exports/state-machine';

export interface CachedStateMachineOptions {
  projectRoot: string;
  /** Default: STATE_MACHINE_CACHE_DIR under the project root. */
  cacheDir?: string;
  /** Called before a synthesis, which takes a while. */
  onSynthesize?: () => void;
}

export interface LoadedStateMachine {
  stateMachine: ExtractedStateMachine;
  fromCache: boolean;
}

/**
 * The polling state machine exactly as the stack synthesizes it for this stack config.
 * Synthesis takes 10 s or more, so the result is kept under a key made of the config and
 * the contents of everything the stack is built from (infra/*.ts, lib/, cdk.json and the
 * lockfile): any change there synthesizes again. A cache that cannot be written is skipped.
 */
export async function loadStateMachine(
  rawStackConfig: unknown,
  options: CachedStateMachineOptions,
): Promise<LoadedStateMachine> {
  const cacheDir = options.cacheDir ?? join(options.projectRoot, STATE_MACHINE_CACHE_DIR);
  const cacheFile = join(cacheDir, `${stateMachineCacheKey(rawStackConfig, options.projectRoot)}.json`);
  const cached = readCached(cacheFile);
  if (cached !== undefined) return { stateMachine: cached, fromCache: true };

  options.onSynthesize?.();
  // Loaded only on a miss: the CDK alone takes seconds to import.
  const { synthesizeStackTemplate } = await import('../infra/synthesizeStackTemplate');
  const stateMachine = stateMachineDefinitionFromTemplate(synthesizeStackTemplate(rawStackConfig ?? {}));
  writeCached(cacheDir, cacheFile, stateMachine);
  return { stateMachine, fromCache: false };
}

/** Changes whenever the config or a source the stack is synthesized from changes. */
export function stateMachineCacheKey(rawStackConfig: unknown, projectRoot: string): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(rawStackConfig ?? {}));
  for (const file of stackSourceFiles(projectRoot)) {
    hash.update(`\0${relative(projectRoot, file)}\0`);
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
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

function readCached(cacheFile: string): ExtractedStateMachine | undefined {
  try {
    const value = JSON.parse(readFileSync(cacheFile, 'utf8')) as ExtractedStateMachine;
    return typeof value.definition?.StartAt === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeCached(cacheDir: string, cacheFile: string, stateMachine: ExtractedStateMachine): void {
  try {
    mkdirSync(cacheDir, { recursive: true });
    // Renamed into place, so a concurrent start never reads half a file.
    const partial = `${cacheFile}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(stateMachine));
    renameSync(partial, cacheFile);
  } catch {
    // A read-only checkout still runs; it synthesizes on every start.
  }
}
