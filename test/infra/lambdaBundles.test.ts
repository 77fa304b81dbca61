import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/ExportFunction';
import { HandlerNames, handlerEntryPath } from '../../lib/http/routeTable';

const BUNDLE_TIMEOUT_MS = 60_000;

/** Every source file the functions' bundles are made of, relative to the project root. */
async function bundleInputs(entries: string[]): Promise<string[]> {
  const result = await build({
    entryPoints: entries.map((entry) => join(PROJECT_ROOT, entry)),
    outdir: join(PROJECT_ROOT, 'cdk.out', 'bundle-check'),
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

describe('the functions Lambda runs', () => {
  it(
    'bundle neither the OpenAPI generator nor a JSON Schema validator',
    async () => {
      // Act
      const files = await bundleInputs(Object.values(HandlerNames).map(handlerEntryPath));

      // Assess
      for (const handler of Object.values(HandlerNames)) expect(files).toContain(handlerEntryPath(handler));
      expect(files.filter((file) => file.startsWith('openapi/'))).toEqual([]);
      expect(files.filter((file) => /node_modules\/(ajv|ajv-formats|@seriousme)\//.test(file))).toEqual([]);
    },
    BUNDLE_TIMEOUT_MS,
  );
});
