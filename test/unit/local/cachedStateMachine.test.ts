import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractedStateMachine } from '../../../infra/extractStateMachine';
import {
  LAST_SYNTHESIS_FILE,
  loadStateMachine,
  pruneStateMachineCache,
  type SynthesisInputs,
  stateMachineCacheKey,
  synthesisInputs,
  synthesisReason,
} from '../../../local/cachedStateMachine';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';

const CACHED_MACHINE: ExtractedStateMachine = {
  logicalId: 'CachedStateMachine',
  definition: { StartAt: 'Done', States: { Done: { Type: 'Succeed' } } },
  taskHandlers: {},
};
const CACHED = {
  stateMachine: CACHED_MACHINE,
  erasureStateMachine: { ...CACHED_MACHINE, logicalId: 'CachedErasureStateMachine' },
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
    expect(loaded).toEqual({ ...CACHED, fromCache: true });
    expect(synthesized).toBe(false);
  });
});

describe('why the state machine is synthesized again', () => {
  const inputs = (configHash: string, sourceHashes: Record<string, string>): SynthesisInputs => ({
    configHash,
    sourceHashes,
  });

  it('says nothing is cached yet on the first start', () => {
    // Act
    const reason = synthesisReason(undefined, inputs('a', { 'lib/config.ts': '1' }));

    // Assess
    expect(reason).toBe('nothing is cached yet (the first start in this checkout)');
  });

  it('blames the stack configuration, not infra/ or lib/, when only the configuration changed', () => {
    // Prepare
    const sources = { 'infra/Stack.ts': '1', 'lib/config.ts': '2' };

    // Act
    const reason = synthesisReason(inputs('a', sources), inputs('b', { ...sources }));

    // Assess
    expect(reason).toBe(
      'the stack configuration (LOCAL_STACK_CONFIG, else cdk.json) changed since the last synthesis',
    );
  });

  it('names the sources that changed, were added or removed', () => {
    // Prepare
    const last = inputs('a', { 'infra/Stack.ts': '1', 'lib/config.ts': '2', 'lib/gone.ts': '3' });

    // Act
    const reason = synthesisReason(
      last,
      inputs('a', { 'infra/Stack.ts': '1', 'lib/config.ts': '9', 'lib/new.ts': '4' }),
    );

    // Assess
    expect(reason).toBe('3 sources changed since the last synthesis: lib/config.ts, lib/gone.ts, lib/new.ts');
  });

  it('names both, and at most three files, when the configuration and many sources changed', () => {
    // Prepare
    const last = inputs('a', { 'lib/a.ts': '1', 'lib/b.ts': '1', 'lib/c.ts': '1', 'lib/d.ts': '1' });

    // Act
    const reason = synthesisReason(
      last,
      inputs('b', { 'lib/a.ts': '2', 'lib/b.ts': '2', 'lib/c.ts': '2', 'lib/d.ts': '2' }),
    );

    // Assess
    expect(reason).toBe(
      'the stack configuration (LOCAL_STACK_CONFIG, else cdk.json) and 4 sources changed since the last ' +
        'synthesis: lib/a.ts, lib/b.ts, lib/c.ts and 1 more',
    );
  });

  it('hashes each source of the project and the configuration apart', () => {
    // Act
    const plain = synthesisInputs({}, LOCAL_PROJECT_ROOT);
    const configured = synthesisInputs({ polling: { statusPollIntervalSeconds: 20 } }, LOCAL_PROJECT_ROOT);

    // Assess
    expect(Object.keys(plain.sourceHashes)).toEqual(
      expect.arrayContaining(['cdk.json', 'infra/PollingWorkflow.ts', 'lib/config.ts']),
    );
    expect(configured.sourceHashes).toEqual(plain.sourceHashes);
    expect(configured.configHash).not.toBe(plain.configHash);
  });
});

describe('the state machine cache on disk', () => {
  let cacheDir: string | undefined;

  afterEach(() => {
    if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
    cacheDir = undefined;
  });

  it('keeps only the newest definitions, and what the last synthesis was made from', () => {
    // Prepare: four definitions written a second apart, and the record of the last synthesis.
    const dir = mkdtempSync(join(tmpdir(), 'state-machine-prune-'));
    cacheDir = dir;
    const names = ['a', 'b', 'c', 'd'].map((letter) => `${letter.repeat(64)}.json`);
    for (const [index, name] of names.entries()) {
      writeFileSync(join(dir, name), JSON.stringify(CACHED));
      utimesSync(join(dir, name), 1_000 + index, 1_000 + index);
    }
    writeFileSync(join(dir, LAST_SYNTHESIS_FILE), '{}');

    // Act
    pruneStateMachineCache(dir, 2);

    // Assess
    expect(readdirSync(dir).sort()).toEqual([names[2], names[3], LAST_SYNTHESIS_FILE].sort());
  });
});
