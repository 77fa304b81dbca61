import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/ExportFunction';
import { PROBLEMS } from '../../../lib/errors/problems';
import { type HandlerName, HandlerNames, handlerEntryPath } from '../../../lib/http/routeTable';
import {
  buildFunctionBundle,
  MAX_ARCHIVE_BUNDLE_BYTES,
  MAX_BUNDLE_BYTES,
  maxBundleBytes,
} from '../../support/functionBundle';

const BUNDLE_TIMEOUT_MS = 60_000;
const SHIPPED_BUNDLES_TIMEOUT_MS = 180_000;
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

  it(
    "bundle none of the answers' schemas: the functions import only the types inferred from them",
    async () => {
      // Prepare
      const documented = (await sourceFiles(join(PROJECT_ROOT, 'lib'))).filter((file) =>
        /z\.(describe|globalRegistry)\b/.test(readFileSync(join(PROJECT_ROOT, file), 'utf8')),
      );

      // Act
      const files = await bundleInputs(Object.values(HandlerNames).map(handlerEntryPath));

      // Assess
      expect(documented).toContain('lib/http/exportViewSchema.ts');
      expect(documented).toContain('lib/exports/coverage/spotCoverageSchema.ts');
      expect(files.filter((file) => documented.includes(file))).toEqual([]);
    },
    BUNDLE_TIMEOUT_MS,
  );
});

/** The TypeScript files under `directory`, relative to the project root. */
async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(PROJECT_ROOT, join(entry.parentPath, entry.name)));
}

describe('the bundles the stack ships', () => {
  let workDir: string;
  const shipped = new Map<HandlerName, { inputs: string[]; bytes: number; text: string }>();
  const inputsOf = (handler: HandlerName) => shipped.get(handler)?.inputs ?? [];
  const matching = (handler: HandlerName, pattern: RegExp) =>
    inputsOf(handler).filter((file) => pattern.test(file));

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'shipped-bundles-'));
    for (const handler of Object.values(HandlerNames)) {
      const { file, metafile } = await buildFunctionBundle(handler, join(workDir, handler));
      // The files with code in the bundle: esbuild also reads modules it then drops (zod/mini re-exports its locales).
      const output = Object.values(metafile.outputs).find((candidate) => candidate.entryPoint !== undefined);
      const inputs = Object.entries(output?.inputs ?? {})
        .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
        .map(([input]) => input);
      const text = await readFile(file, 'utf8');
      shipped.set(handler, { inputs, bytes: Buffer.byteLength(text), text });
    }
  }, SHIPPED_BUNDLES_TIMEOUT_MS);

  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it('hold no zod locale and not the classic zod API (which loads them all)', () => {
    for (const handler of Object.values(HandlerNames)) {
      expect(inputsOf(handler).length, handler).toBeGreaterThan(0);
      expect(matching(handler, /node_modules\/zod\/v4\/(locales|classic)\//), handler).toEqual([]);
    }
  });

  it(`each weigh at most ${MAX_BUNDLE_BYTES / 1024} KB minified, archive and erasure-task ${MAX_ARCHIVE_BUNDLE_BYTES / 1024} KB`, () => {
    for (const handler of Object.values(HandlerNames)) {
      expect(shipped.get(handler)?.bytes ?? Number.POSITIVE_INFINITY, handler).toBeLessThanOrEqual(
        maxBundleBytes(handler),
      );
    }
  });

  it("carry the settings' names, defaults and checks, but not their descriptions", () => {
    for (const handler of Object.values(HandlerNames)) {
      expect(matching(handler, /^lib\/settings\/settingsTable\.ts$/), handler).toHaveLength(1);
      expect(matching(handler, /^lib\/settings\/settingDescriptions\.ts$/), handler).toEqual([]);
    }
  });

  it("hold none of the CLI's query engines: no DuckDB (a native library), the Athena client only in the erasure task", () => {
    for (const handler of Object.values(HandlerNames)) {
      expect(matching(handler, /node_modules\/@duckdb\//), handler).toEqual([]);
      expect(matching(handler, /^cli\//), handler).toEqual([]);
      // The erasure's end counts the user's rows left in the table with one Athena query.
      const athena = matching(handler, /node_modules\/@aws-sdk\/client-athena\//);
      if (handler === HandlerNames.ERASURE_TASK) expect(athena, handler).not.toEqual([]);
      else expect(athena, handler).toEqual([]);
    }
  });

  it('give the problems’ titles and details only to the functions the API calls', () => {
    // The workflow's tasks and the reconciler answer no HTTP: their errors carry a problem type, not its prose.
    const titles = Object.values(PROBLEMS).map(({ title }) => title);
    const taskHandlers: HandlerName[] = [
      HandlerNames.WORKFLOW_TASK,
      HandlerNames.ARCHIVE,
      HandlerNames.RECONCILE,
      HandlerNames.ERASURE_TASK,
    ];
    for (const handler of Object.values(HandlerNames)) {
      const text = shipped.get(handler)?.text ?? '';
      const shown = titles.filter((title) => text.includes(title));
      expect(shown, handler).toEqual(taskHandlers.includes(handler) ? [] : titles);
    }
  });

  it('give archive and the erasure task (which writes the Parquet files again) the Parquet writer, and no other function', () => {
    const parquetWriter = /node_modules\/(hyparquet-writer|hysnappy)\//;
    const writers: HandlerName[] = [HandlerNames.ARCHIVE, HandlerNames.ERASURE_TASK];
    for (const handler of writers)
      expect(matching(handler, parquetWriter).length, handler).toBeGreaterThan(0);
    for (const handler of Object.values(HandlerNames)) {
      if (!writers.includes(handler)) expect(matching(handler, parquetWriter), handler).toEqual([]);
    }
  });

  it('give zod only to the functions that parse API requests with it, and the task input checks only to the task handlers', () => {
    // zod is compiled at every cold start of a function that carries it: the upstream replies, the
    // spots' secrets, the task inputs and the spot header are read with plain checks.
    const requestParsers: HandlerName[] = [HandlerNames.START, HandlerNames.BACKFILLS];
    for (const handler of Object.values(HandlerNames)) {
      expect(matching(handler, /node_modules\/zod\//).length > 0, handler).toBe(
        requestParsers.includes(handler),
      );
    }
    const taskHandlers: HandlerName[] = [HandlerNames.WORKFLOW_TASK, HandlerNames.ARCHIVE];
    for (const handler of Object.values(HandlerNames)) {
      expect(matching(handler, /^lib\/exports\/workflow\/workflowTaskInput\.ts$/).length > 0, handler).toBe(
        taskHandlers.includes(handler),
      );
    }
  });

  it('give list the table and nothing else: no other AWS client, no OpenWeb client', () => {
    expect(matching(HandlerNames.LIST, /node_modules\/@aws-sdk\/client-dynamodb\//).length).toBeGreaterThan(
      0,
    );
    expect(
      matching(
        HandlerNames.LIST,
        /node_modules\/@aws-sdk\/(client-sfn|client-eventbridge|client-secrets-manager|client-s3)\//,
      ),
    ).toEqual([]);
    // Of lib/openweb only the download-host rules and limits the configuration reads.
    expect(
      matching(HandlerNames.LIST, /^lib\/openweb\//).filter(
        (file) => !['lib/openweb/downloadLinkPolicy.ts', 'lib/openweb/UpstreamGovernor.ts'].includes(file),
      ),
    ).toEqual([]);
  });

  it('give start the table, the secrets and the workflows, but neither the upstream nor the bus', () => {
    for (const client of ['client-dynamodb', 'client-secrets-manager', 'client-sfn']) {
      expect(
        matching(HandlerNames.START, new RegExp(`node_modules/@aws-sdk/${client}/`)).length,
        client,
      ).toBeGreaterThan(0);
    }
    expect(matching(HandlerNames.START, /node_modules\/@aws-sdk\/(client-eventbridge|client-s3)\//)).toEqual(
      [],
    );
    expect(matching(HandlerNames.START, /^lib\/openweb\/OpenWebClient\.ts$/)).toEqual([]);
  });

  it('give files the table and the bucket’s presigner: no S3 client, no bus, no secrets, no workflows, no upstream', () => {
    // Its S3 reads are presigned GETs: S3's signer alone, not the client and its operation models.
    expect(
      matching(
        HandlerNames.FILES,
        /node_modules\/@aws-sdk\/(client-s3|client-sfn|client-eventbridge|client-secrets-manager)\//,
      ),
    ).toEqual([]);
    expect(matching(HandlerNames.FILES, /^lib\/openweb\/OpenWebClient\.ts$/)).toEqual([]);
  });

  it('give files the bucket to read (presigned GETs) and archive the bucket to write (uploads), not both', () => {
    const presigner = /node_modules\/@aws-sdk\/s3-request-presigner\//;
    const uploads = /node_modules\/@aws-sdk\/lib-storage\//;
    expect(matching(HandlerNames.FILES, presigner).length).toBeGreaterThan(0);
    expect(matching(HandlerNames.FILES, uploads)).toEqual([]);
    expect(matching(HandlerNames.ARCHIVE, uploads).length).toBeGreaterThan(0);
    expect(matching(HandlerNames.ARCHIVE, presigner)).toEqual([]);
  });

  it('give coverage the table and nothing else: no other AWS client, no OpenWeb client', () => {
    expect(
      matching(HandlerNames.COVERAGE, /node_modules\/@aws-sdk\/client-dynamodb\//).length,
    ).toBeGreaterThan(0);
    expect(
      matching(
        HandlerNames.COVERAGE,
        /node_modules\/@aws-sdk\/(client-sfn|client-eventbridge|client-secrets-manager|client-s3)\//,
      ),
    ).toEqual([]);
    expect(matching(HandlerNames.COVERAGE, /^lib\/openweb\/OpenWebClient\.ts$/)).toEqual([]);
  });
});
