import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { InvalidSimulatorStateError } from './errors';
import type { SimulatedExportsSnapshot } from './SimulatedExports';

/**
 * What the simulator keeps across restarts when given a state file: its exports, and the
 * secrets behind the tokens and download links it handed out, so a restarted local runtime
 * finds its in-flight exports still running upstream and its links still valid.
 */
export interface SimulatorState {
  seed: number;
  tokenSecret: Uint8Array;
  linkSecret: Buffer;
  exports: SimulatedExportsSnapshot;
}

const STATE_FILE_VERSION = 1;

const stateFileSchema = z.object({
  version: z.literal(STATE_FILE_VERSION),
  seed: z.number().int(),
  tokenSecret: z.base64(),
  linkSecret: z.base64(),
  exports: z.object({
    sequence: z.number().int().min(0),
    exports: z.array(z.looseObject({ id: z.string() })),
  }),
});

/** The saved state, or undefined when there is none yet. */
export function readSimulatorState(path: string): SimulatorState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InvalidSimulatorStateError(path, 'it cannot be read', { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidSimulatorStateError(path, 'it is not JSON', { cause: error });
  }
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success)
    throw new InvalidSimulatorStateError(path, parsed.error.issues[0]?.message ?? 'bad shape');
  return {
    seed: parsed.data.seed,
    tokenSecret: new Uint8Array(Buffer.from(parsed.data.tokenSecret, 'base64')),
    linkSecret: Buffer.from(parsed.data.linkSecret, 'base64'),
    exports: parsed.data.exports as unknown as SimulatedExportsSnapshot,
  };
}

/** Written to a temporary file and renamed, so a crash mid-write never leaves half a file. */
export function writeSimulatorState(path: string, state: SimulatorState): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp`;
  writeFileSync(
    temporary,
    JSON.stringify({
      version: STATE_FILE_VERSION,
      seed: state.seed,
      tokenSecret: Buffer.from(state.tokenSecret).toString('base64'),
      linkSecret: state.linkSecret.toString('base64'),
      exports: state.exports,
    }),
  );
  renameSync(temporary, path);
}
