import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/ExportFunction';
import { HandlerNames, handlerEntryPath } from '../../lib/http/routeTable';

const BUNDLE_TIMEOUT_MS = 60_000;

/** Every source file the function's bundle is made of, relative to the project root. */
async function bundleInputs(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(PROJECT_ROOT, entry)],
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
      const inputs = await Promise.all(
        Object.values(HandlerNames).map(async (handler) => bundleInputs(handlerEntryPath(handler))),
      );

      // Assess
      for (const files of inputs) {
        expect(files.length).toBeGreaterThan(10);
        expect(files.filter((file) => file.startsWith('openapi/'))).toEqual([]);
        expect(files.filter((file) => /node_modules\/(ajv|ajv-formats|@seriousme)\//.test(file))).toEqual([]);
      }
    },
    BUNDLE_TIMEOUT_MS,
  );
});
