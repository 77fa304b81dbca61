import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractedStateMachine } from '../../../infra/extractStateMachine';
import { loadStateMachine, stateMachineCacheKey } from '../../../local/cachedStateMachine';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';

const CACHED: ExtractedStateMachine = {
  logicalId: 'CachedStateMachine',
  definition: { StartAt: 'Done', States: { Done: { Type: 'Succeed' } } },
  taskHandlers: {},
};

describe('the synthesized state machine cache', () => {
  let cacheDir: string | undefined;

  afterEach(() => {
    if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
    cacheDir = undefined;
  });

  it('keys on the stack config', () => {
    // Act
    const plain = stateMachineCacheKey({}, LOCAL_PROJECT_ROOT);
    const again = stateMachineCacheKey({}, LOCAL_PROJECT_ROOT);
    const configured = stateMachineCacheKey(
      { polling: { statusPollIntervalSeconds: 20 } },
      LOCAL_PROJECT_ROOT,
    );

    // Assess
    expect(plain).toBe(again);
    expect(configured).not.toBe(plain);
  });

  it('keys on the sources the stack is built from', () => {
    // Prepare: a copy of the project's stack sources with one file changed.
    cacheDir = mkdtempSync(join(tmpdir(), 'state-machine-key-'));
    const write = (path: string, text: string) => {
      mkdirSync(join(cacheDir as string, path, '..'), { recursive: true });
      writeFileSync(join(cacheDir as string, path), text);
    };
    write('infra/Stack.ts', 'export const a = 1;');
    write('lib/store/table.ts', 'export const b = 1;');
    const before = stateMachineCacheKey({}, cacheDir);

    // Act
    write('lib/store/table.ts', 'export const b = 2;');
    const after = stateMachineCacheKey({}, cacheDir);

    // Assess
    expect(after).not.toBe(before);
  });

  it('answers from the cache without synthesizing', async () => {
    // Prepare
    cacheDir = mkdtempSync(join(tmpdir(), 'state-machine-cache-'));
    writeFileSync(
      join(cacheDir, `${stateMachineCacheKey({}, LOCAL_PROJECT_ROOT)}.json`),
      JSON.stringify(CACHED),
    );
    let synthesized = false;

    // Act
    const loaded = await loadStateMachine(
      {},
      {
        projectRoot: LOCAL_PROJECT_ROOT,
        cacheDir,
        onSynthesize: () => {
          synthesized = true;
        },
      },
    );

    // Assess
    expect(loaded).toEqual({ stateMachine: CACHED, fromCache: true });
    expect(synthesized).toBe(false);
  });
});
