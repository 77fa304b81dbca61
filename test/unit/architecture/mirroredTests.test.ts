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
  [
    'lib/archive/archivedFilesSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/errors/fieldProblemSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/exports/backfill/backfillProgressSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/exports/cost/exportCostSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/exports/coverage/spotCoverageSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/exports/record/viewFields.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/http/backfillViewSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/http/erasureViewSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json), by test/integration/functions/erasures.test.ts (Ajv against the handler's answers) and test/unit/lib/http/erasureView.test.ts",
  ],
  [
    'lib/http/exportViewSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/http/problemSchema.ts',
    "an answer's schema (its type inferred from it): checked by test/integration/openapi/ (the generated openapi.json, Ajv against real answers) and by the CLI's tests, which validate answers with it; no test of its own yet",
  ],
  [
    'lib/archive/pathTablePartitions.ts',
    'a no-op TablePartitions (nothing to register where partitions are found in the keys): nothing to assert',
  ],
  [
    'lib/exports/coverage/CoverageLedger.ts',
    'the coverage port; its only value is the WindowState constants',
  ],
  [
    'lib/exports/fleet/errors.ts',
    "the fleet's errors: their problems are checked by test/integration/fleet/fleetApi.test.ts (an unknown spot's 404); no test of its own yet",
  ],
  [
    'lib/exports/fleet/fleetStatus.ts',
    'the fleet view: exercised table-driven on dynalite by test/integration/fleet/fleetApi.test.ts; no test of its own yet',
  ],
  [
    'lib/exports/fleet/spotFreshness.ts',
    "each spot's freshness: exercised by test/integration/fleet/fleetApi.test.ts and freshness.test.ts; no test of its own yet",
  ],
  [
    'lib/exports/fleet/trackFreshness.ts',
    "the reconciler's freshness watch: exercised by test/integration/fleet/freshness.test.ts (stale, fresh, one event per episode); no test of its own yet",
  ],
  [
    'lib/http/readFleetQuery.ts',
    "GET /spots' query reader: exercised by test/integration/fleet/fleetApi.test.ts (paging, spotId lists); no test of its own yet",
  ],
  [
    'lib/exports/requests/exportRequestLimits.ts',
    'constants only: enforced and tested through test/unit/lib/exports/requests/exportRequestSchema.futureWindow.test.ts',
  ],
  [
    'lib/exports/upstream/UpstreamExports.ts',
    'the upstream port; its only value is the UpstreamExportStatus constants',
  ],
  [
    'lib/exports/upstream/errors.ts',
    'error classes that classify themselves: every one is built and checked (retryable, create failure, problem) in test/unit/lib/errors/errorClassification.test.ts',
  ],
  [
    'lib/glue/commentRowsStorage.ts',
    'the Glue storage descriptor of comment_rows: checked in the template by test/integration/infra/ExportsLake.test.ts, used by test/unit/lib/glue/GlueTablePartitions.test.ts',
  ],
  [
    'lib/lake/archivedExportsSql.ts',
    'SQL text the comments and comment_changes views share: run on DuckDB by test/integration/lib/lake/commentsView.test.ts and commentChangesView.test.ts',
  ],
  [
    'lib/lake/commentRowsTable.ts',
    'the lake table definition (constants and a key prefix): checked in the template by test/integration/infra/ExportsLake.test.ts and over DuckDB by test/integration/cli/query/DuckDbQueryEngine.test.ts',
  ],
  ['lib/openweb/OpenWebOperation.ts', "constants only: the client's operation names"],
  [
    'lib/runtime/AwsClients.ts',
    "a function's AWS SDK clients, built once: replaced by aws-sdk-client-mock in test/unit/functions/support/mockedAwsRuntime.ts",
  ],
  [
    'lib/runtime/adapterFactories/dynamoDbFactories.ts',
    'one adapter built from the config: built for every function by test/unit/lib/runtime/buildDependencies.test.ts and defaultHandlerRuntime.test.ts',
  ],
  [
    'lib/runtime/adapterFactories/openWebUpstreamFactory.ts',
    'one adapter built from the config: built for every function by test/unit/lib/runtime/buildDependencies.test.ts and defaultHandlerRuntime.test.ts',
  ],
  [
    'lib/runtime/lifecycleAdapters.ts',
    'which adapter factories the lifecycle functions use: built by test/unit/lib/runtime/buildDependencies.test.ts through test/support/lifecycleDependencies.ts',
  ],
  [
    'lib/store/createDocumentClient.ts',
    "the document client's marshalling options: used by every dynalite test through test/support/dynalite.ts",
  ],
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
