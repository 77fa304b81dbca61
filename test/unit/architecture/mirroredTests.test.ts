import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';

/**
 * Every module of lib/ with logic has its test at its own path: `lib/X/y.ts` is tested by
 * `test/unit/lib/X/y.test.ts` or `test/integration/lib/X/y.test.ts` (the latter when it needs a real
 * adapter), or by `y.<aspect>.test.ts` beside either (`OpenWebClient.auth.test.ts`).
 *
 * A module has logic when it emits JavaScript of its own: one of its top-level statements is
 * something other than an import, a type alias, an interface, an ambient `declare`, or a re-export
 * (`export … from`, `export type { … }`). A module of types and re-exports only has nothing to test.
 *
 * A module with logic and no mirrored test must be on the allowlist below, with the reason; an entry
 * that gains a test, loses its logic or its file leaves the list (the test says which).
 */
const ALLOWLIST: ReadonlyMap<string, string> = new Map<string, string>([
  ['lib/archive/downloadToFile.ts', 'no test at its own path yet'],
  ['lib/archive/errors.ts', 'no test at its own path yet'],
  ['lib/archive/parquet/CommentParquetTee.ts', 'no test at its own path yet'],
  ['lib/archive/parquet/CommentRowMapping.ts', 'no test at its own path yet'],
  ['lib/archive/parquet/ParquetByteOutput.ts', 'no test at its own path yet'],
  ['lib/archive/pathTablePartitions.ts', 'no test at its own path yet'],
  ['lib/errors/ClassifiedError.ts', 'no test at its own path yet'],
  ['lib/errors/problems.ts', 'no test at its own path yet'],
  ['lib/events/errors.ts', 'no test at its own path yet'],
  ['lib/exports/backfill/errors.ts', 'no test at its own path yet'],
  ['lib/exports/coverage/CoverageLedger.ts', 'no test at its own path yet'],
  ['lib/exports/coverage/errors.ts', 'no test at its own path yet'],
  ['lib/exports/lifecycle/createOutcomes.ts', 'no test at its own path yet'],
  ['lib/exports/queue/errors.ts', 'no test at its own path yet'],
  ['lib/exports/reconciler/errors.ts', 'no test at its own path yet'],
  ['lib/exports/record/errors.ts', 'no test at its own path yet'],
  ['lib/exports/requests/exportRequestLimits.ts', 'no test at its own path yet'],
  ['lib/exports/upstream/UpstreamExports.ts', 'no test at its own path yet'],
  ['lib/exports/upstream/errors.ts', 'no test at its own path yet'],
  ['lib/exports/workflow/errors.ts', 'no test at its own path yet'],
  ['lib/glue/commentRowsStorage.ts', 'no test at its own path yet'],
  ['lib/glue/errors.ts', 'no test at its own path yet'],
  ['lib/http/backfillView.ts', 'no test at its own path yet'],
  ['lib/lake/commentRowsTable.ts', 'no test at its own path yet'],
  ['lib/lake/commentsView.ts', 'no test at its own path yet'],
  ['lib/openweb/FreshTokenSender.ts', 'no test at its own path yet'],
  ['lib/openweb/HttpTransport.ts', 'no test at its own path yet'],
  ['lib/openweb/OpenWebOperation.ts', 'no test at its own path yet'],
  ['lib/openweb/RetryLoop.ts', 'no test at its own path yet'],
  ['lib/openweb/UpstreamAuthenticator.ts', 'no test at its own path yet'],
  ['lib/runtime/AwsClients.ts', 'no test at its own path yet'],
  ['lib/runtime/adapterFactories/archiveS3Client.ts', 'no test at its own path yet'],
  ['lib/runtime/adapterFactories/dynamoDbFactories.ts', 'no test at its own path yet'],
  ['lib/runtime/adapterFactories/eventBridgeFactories.ts', 'no test at its own path yet'],
  ['lib/runtime/adapterFactories/openWebUpstreamFactory.ts', 'no test at its own path yet'],
  ['lib/runtime/adapterFactories/s3ArchiveReaderFactory.ts', 'no test at its own path yet'],
  ['lib/runtime/adapterFactories/s3ArchiveWriterFactory.ts', 'no test at its own path yet'],
  ['lib/runtime/adapterFactories/spotCredentialsFactory.ts', 'no test at its own path yet'],
  ['lib/runtime/adapterFactories/stepFunctionsWorkflowsFactory.ts', 'no test at its own path yet'],
  ['lib/runtime/createHandler.ts', 'no test at its own path yet'],
  ['lib/runtime/errors.ts', 'no test at its own path yet'],
  ['lib/runtime/lifecycleAdapters.ts', 'no test at its own path yet'],
  ['lib/s3/S3ArchiveWriter.ts', 'no test at its own path yet'],
  ['lib/settings/defaultExportSettings.ts', 'no test at its own path yet'],
  ['lib/settings/functionSettings.ts', 'no test at its own path yet'],
  ['lib/store/DynamoDbArchiveRecords.ts', 'no test at its own path yet'],
  ['lib/store/DynamoDbExportLinks.ts', 'no test at its own path yet'],
  ['lib/store/contendedWrite.ts', 'no test at its own path yet'],
  ['lib/store/createDocumentClient.ts', 'no test at its own path yet'],
]);

const ROOT = LOCAL_PROJECT_ROOT;
const TEST_TIERS = ['test/unit', 'test/integration'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// What a module's emitted JavaScript may hold and still have no logic of its own.
// (esbuild writes `export { a } from './a'` as an import and an export list: an export list without
// anything defined beside it only re-exports.)
const RE_EXPORT =
  /export\s*(?:\*(?:\s*as\s*[\w$]+)?\s*from\s*(?:"[^"]*"|'[^']*')|\{[^}]*\}(?:\s*from\s*(?:"[^"]*"|'[^']*'))?);?/g;
const IMPORT = /import\s*(?:[^'";]*from\s*)?(?:"[^"]*"|'[^']*');?/g;

/** Whether a module emits code of its own (see the rule above): what is left once types are stripped. */
function hasLogic(source: string): boolean {
  const { code } = transformSync(source, {
    loader: 'ts',
    format: 'esm',
    minifyWhitespace: true,
    legalComments: 'none',
  });
  return code.replace(RE_EXPORT, '').replace(IMPORT, '').trim() !== '';
}

/** The test files at a module's mirrored path (`y.test.ts` or `y.<aspect>.test.ts`, unit or integration). */
function mirroredTests(module: string): string[] {
  const folder = dirname(module);
  const name = basename(module, '.ts');
  return TEST_TIERS.flatMap((tier) => {
    const directory = join(ROOT, tier, folder);
    if (!existsSync(directory)) return [];
    return readdirSync(directory)
      .filter(
        (file) => file === `${name}.test.ts` || (file.startsWith(`${name}.`) && file.endsWith('.test.ts')),
      )
      .map((file) => join(tier, folder, file));
  });
}

interface ModuleSurvey {
  /** lib/ modules with logic, each with its mirrored tests (none when untested). */
  readonly logic: ReadonlyMap<string, string[]>;
  /** lib/ modules of types and re-exports only. */
  readonly typeOnly: readonly string[];
}

function surveyLib(): ModuleSurvey {
  const logic = new Map<string, string[]>();
  const typeOnly: string[] = [];
  for (const path of sourceFiles(join(ROOT, 'lib')).sort()) {
    const module = relative(ROOT, path).split(sep).join('/');
    if (hasLogic(readFileSync(path, 'utf8'))) logic.set(module, mirroredTests(module));
    else typeOnly.push(module);
  }
  return { logic, typeOnly };
}

describe('lib/ modules', () => {
  const survey = surveyLib();
  const untested = [...survey.logic].filter(([, tests]) => tests.length === 0).map(([module]) => module);

  it('each have a test at their own path, or a reason on the allowlist', () => {
    // Prepare
    const mirrored = survey.logic.size - untested.length;
    const percent = ((100 * mirrored) / survey.logic.size).toFixed(1);
    console.info(
      [
        `mirrored tests: ${mirrored} of ${survey.logic.size} lib modules with logic (${percent} %);`,
        `${survey.typeOnly.length} modules of types and re-exports only; ${ALLOWLIST.size} allowlisted:`,
        ...[...ALLOWLIST].map(([module, reason]) => `  ${module}: ${reason}`),
      ].join('\n'),
    );

    // Assess
    expect(untested.filter((module) => !ALLOWLIST.has(module))).toEqual([]);
  });

  it('leave the allowlist once they have a mirrored test, no logic, or no file', () => {
    // Act
    const stale = [...ALLOWLIST.keys()].filter((module) => !untested.includes(module));

    // Assess
    expect(stale).toEqual([]);
  });

  it('count as logic when they emit code, not when they hold types and re-exports only', () => {
    // Act / Assess
    expect(hasLogic("import type { A } from './a';\nexport interface B { a: A }\nexport type C = B[];")).toBe(
      false,
    );
    expect(hasLogic("export { a } from './a';\nexport type { B } from './b';\nexport * from './c';")).toBe(
      false,
    );
    expect(
      hasLogic('declare const marker: unique symbol;\nexport type Branded = string & { [marker]: true };'),
    ).toBe(false);
    expect(hasLogic('export const LIMIT = 3;')).toBe(true);
    expect(hasLogic('export function twice(n: number): number { return 2 * n; }')).toBe(true);
    expect(hasLogic('export class NotFoundError extends Error {}')).toBe(true);
    expect(hasLogic('export abstract class Port { abstract read(): string; }')).toBe(true);
  });
});
