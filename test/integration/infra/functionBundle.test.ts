import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportFunction } from '../../../infra/ExportFunction';
import { HandlerNames } from '../../../lib/http/routeTable';
import {
  BUNDLE_FILE,
  buildFunctionBundle,
  esbuildOptionsFor,
  esbuildTarget,
} from '../../support/functionBundle';

const SYNTH_TIMEOUT_MS = 120_000;

describe('the bundle builder of the checks and benchmarks', () => {
  let workDir: string;
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'function-bundle-'));
  });
  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it(
    'writes byte for byte the bundle the stack synthesizes',
    async () => {
      // Arrange: the stack's own bundling of one function, by aws-cdk-lib.
      const app = new App({ outdir: join(workDir, 'cdk.out') });
      new ExportFunction(new Stack(app, 'BundleCheck'), 'List', {
        handler: HandlerNames.LIST,
        memorySizeMb: 256,
        timeoutSeconds: 10,
        environment: {},
        logRetention: logs.RetentionDays.ONE_WEEK,
        sourceMapStackTraces: false,
      });
      const assembly = app.synth();
      const assetDirs = (await readdir(assembly.directory)).filter((name) => name.startsWith('asset.'));
      expect(assetDirs).toHaveLength(1);
      const assetDir = join(assembly.directory, assetDirs[0] as string);
      const shipped = await readFile(join(assetDir, BUNDLE_FILE));

      // Act
      const ours = await buildFunctionBundle(HandlerNames.LIST, join(workDir, 'ours'));

      // Assess
      expect((await readFile(ours.file)).equals(shipped)).toBe(true);
      // The source map ships in the function's code, so its traces can be decoded with or without
      // sourceMapStackTraces.
      expect((await readdir(assetDir)).sort()).toEqual([BUNDLE_FILE, `${BUNDLE_FILE}.map`]);
    },
    SYNTH_TIMEOUT_MS,
  );

  it('refuses a bundling option it does not map', () => {
    expect(() => esbuildOptionsFor({ minify: true, loader: { '.txt': 'text' } })).toThrow(/loader/);
  });

  it('targets the Node.js major of the runtime', () => {
    expect(esbuildTarget('nodejs24.x')).toBe('node24');
    expect(() => esbuildTarget('python3.13')).toThrow(/Not a Node.js runtime/);
  });
});
