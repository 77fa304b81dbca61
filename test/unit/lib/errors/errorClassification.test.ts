import { describe, expect, it } from 'vitest';
import * as archiveErrors from '../../../../lib/archive/errors';
import { isClassified } from '../../../../lib/errors/ClassifiedError';
import * as eventErrors from '../../../../lib/events/errors';
import * as backfillErrors from '../../../../lib/exports/backfill/errors';
import * as coverageErrors from '../../../../lib/exports/coverage/errors';
import * as queueErrors from '../../../../lib/exports/queue/errors';
import * as reconcilerErrors from '../../../../lib/exports/reconciler/errors';
import * as recordErrors from '../../../../lib/exports/record/errors';
import { isTransientFailure } from '../../../../lib/exports/record/failureReasons';
import {
  createFailureKind,
  retryAtMsOf,
  upstreamWaitKindOf,
} from '../../../../lib/exports/upstream/createFailureKind';
import * as openWebErrors from '../../../../lib/exports/upstream/errors';
import * as workflowErrors from '../../../../lib/exports/workflow/errors';
import * as glueErrors from '../../../../lib/glue/errors';
import * as httpErrors from '../../../../lib/http/ProblemError';
import { problemForError } from '../../../../lib/http/problemForError';
import { exportRecordFixture, idempotencyRecordFixture } from '../../../support/exportRecordFixtures';

const SPOT = 'sp_abc';
const completed = exportRecordFixture({ status: 'COMPLETED' });
const idempotencyRecord = idempotencyRecordFixture({ spotId: SPOT, exportId: completed.exportId });
const abortCause = Object.assign(new Error('aborted'), { name: 'AbortError' });
const {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  AuthRejectedError,
  ExportConflictError,
  ExportNotAbortableError,
  InvalidExportRequestError,
  InvalidSpotIdError,
  UpstreamError,
  SpotForbiddenError,
  TokenUnavailableError,
  UpstreamAuthPacedError,
  UpstreamExportNotFoundError,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamRequestRejectedError,
  UpstreamUnavailableError,
} = openWebErrors;

/**
 * Every error class of lib/ and what it means: passing trouble or not; for a create, deferred
 * (and why it waits), refused or ambiguous; and the problem an API caller is shown
 * (`status type`), or none (a generic 500).
 */
const classifications: [error: Error, retryable: boolean, create: string, problem: string | undefined][] = [
  // The upstream (lib/openweb)
  [new UpstreamError('?'), false, 'ambiguous', '502 upstream-error'],
  [new AuthRejectedError(SPOT), false, 'refused', '502 upstream-credentials-rejected'],
  [new TokenUnavailableError(SPOT), true, 'deferred unavailable', '503 upstream-unavailable'],
  [
    new TokenUnavailableError(SPOT, { cause: new UpstreamRateLimitedError(undefined) }),
    true,
    'deferred throttled',
    '503 upstream-unavailable',
  ],
  [new UpstreamAuthPacedError(SPOT, 1500), true, 'deferred auth-paced', '503 upstream-rate-limited'],
  [new InvalidSpotIdError(), false, 'refused', '502 upstream-error'],
  [new SpotForbiddenError(SPOT), false, 'refused', '502 upstream-credentials-rejected'],
  [new ExportConflictError(SPOT, undefined), false, 'refused', '409 upstream-export-in-progress'],
  [new UpstreamExportNotFoundError(SPOT, 'exp_1'), false, 'ambiguous', '502 upstream-error'],
  [new InvalidExportRequestError('bad range'), false, 'refused', '422 upstream-rejected-request'],
  [new ExportNotAbortableError('exp_1', undefined), false, 'refused', '422 upstream-rejected-request'],
  [new UpstreamRequestRejectedError(418, undefined), false, 'refused', '502 upstream-error'],
  [new UpstreamRateLimitedError(1200), true, 'deferred throttled', '503 upstream-rate-limited'],
  [
    new UpstreamUnavailableError('down', { statusCode: 503 }),
    true,
    'deferred unavailable',
    '503 upstream-unavailable',
  ],
  [new UpstreamUnavailableError('reset'), true, 'deferred unavailable', '503 upstream-unavailable'],
  [
    new UpstreamUnavailableError('slow', { cause: abortCause }),
    true,
    'deferred timeout',
    '504 upstream-timeout',
  ],
  [new AmbiguousCreateError(SPOT, AmbiguousCreateReason.TIMEOUT), false, 'ambiguous', '504 upstream-timeout'],
  [
    new AmbiguousCreateError(SPOT, AmbiguousCreateReason.CONNECTION_LOST),
    false,
    'ambiguous',
    '502 upstream-error',
  ],
  [new UpstreamProtocolError('?', 200, ''), true, 'ambiguous', '502 upstream-protocol-error'],
  // The spot's credentials (lib/secrets)
  [new openWebErrors.CredentialsError('?', SPOT), false, 'refused', undefined],
  [new openWebErrors.CredentialsNotFoundError(SPOT, 'secret s'), false, 'refused', '422 spot-not-configured'],
  [
    new openWebErrors.InvalidCredentialsError(SPOT, 'secret s', ['x']),
    false,
    'refused',
    '422 spot-not-configured',
  ],
  [
    new openWebErrors.CredentialsUnavailableError(SPOT, 'secret s'),
    true,
    'deferred unavailable',
    '503 credentials-unavailable',
  ],
  // The export domain and its store (lib/exports)
  [
    new recordErrors.IllegalTransitionError({ from: 'COMPLETED', to: 'ABORTING', exportId: 'ex_x' }),
    false,
    'ambiguous',
    '409 export-changed-concurrently',
  ],
  [new recordErrors.ExportAlreadyFinishedError(completed), false, 'ambiguous', '409 export-already-finished'],
  [
    new reconcilerErrors.ReconcileFailedError(
      { examined: 1, finished: 0, workflowsRestarted: 0, failures: 1 },
      [],
    ),
    false,
    'ambiguous',
    undefined,
  ],
  [new recordErrors.ExportNotFoundError(SPOT, 'ex_x'), false, 'ambiguous', '404 export-not-found'],
  [new recordErrors.ExportAlreadyExistsError(SPOT, 'ex_x', undefined), false, 'ambiguous', undefined],
  [
    new recordErrors.TransitionConflictError({
      current: completed,
      to: 'ABORTING',
      expectedFrom: ['PROCESSING'],
    }),
    false,
    'ambiguous',
    '409 export-changed-concurrently',
  ],
  [new recordErrors.InvalidPaginationTokenError(), false, 'ambiguous', '400 invalid-request'],
  [new queueErrors.SpotBusyError(SPOT, undefined), false, 'ambiguous', '409 spot-busy'],
  [new recordErrors.IdempotencyConflictError(idempotencyRecord), false, 'ambiguous', undefined],
  [
    new recordErrors.IdempotencyKeyReusedError(idempotencyRecord),
    false,
    'ambiguous',
    '422 idempotency-key-reused',
  ],
  [new backfillErrors.BackfillNotFoundError(SPOT, 'bf_x'), false, 'ambiguous', '404 backfill-not-found'],
  [new backfillErrors.BackfillAlreadyExistsError(SPOT, 'bf_x', undefined), false, 'ambiguous', undefined],
  [new backfillErrors.BackfillTooLargeError(2000, 1000), false, 'ambiguous', '400 invalid-request'],
  [
    new backfillErrors.BackfillWindowsTooLongError({
      windowHours: 730,
      expectedWindowSeconds: 44_000,
      exportDeadlineSeconds: 21_600,
      maxWindowHours: 282,
    }),
    false,
    'ambiguous',
    '400 invalid-request',
  ],
  // The workflow's decisions (lib/exports), acted on by name
  [new workflowErrors.ExportStillProcessingError('ex_x'), false, 'ambiguous', undefined],
  [new workflowErrors.ExportFinishingError('ex_x'), false, 'ambiguous', undefined],
  [
    new workflowErrors.ExportPollingTimedOutError('ex_x', '2025-01-01T00:00:00Z'),
    false,
    'ambiguous',
    undefined,
  ],
  [new workflowErrors.UpstreamUnavailableForWorkflowError('down'), false, 'ambiguous', undefined],
  [new workflowErrors.ExportCreateDeferredError('later'), false, 'ambiguous', undefined],
  [new workflowErrors.ExportCreateRejectedError('ex_x', 'no'), false, 'ambiguous', undefined],
  // The coverage ledger's reads (lib/exports)
  [
    new coverageErrors.CoverageTooDenseError(SPOT, '2026-11-01T00:00:00Z', 10_000),
    false,
    'ambiguous',
    undefined,
  ],
  // Backfills (lib/exports)
  [new backfillErrors.BackfillNotFoundError(SPOT, 'bf_x'), false, 'ambiguous', '404 backfill-not-found'],
  [new backfillErrors.BackfillAlreadyExistsError(SPOT, 'bf_x', undefined), false, 'ambiguous', undefined],
  [new backfillErrors.BackfillTooLargeError(2000, 1000), false, 'ambiguous', '400 invalid-request'],
  [
    new backfillErrors.BackfillWindowsTooLongError({
      windowHours: 730,
      expectedWindowSeconds: 44_000,
      exportDeadlineSeconds: 21_600,
      maxWindowHours: 282,
    }),
    false,
    'ambiguous',
    '400 invalid-request',
  ],
  // Events (lib/events) and archives (lib/archive)
  [new eventErrors.ExportEventPublishError('ex_x', undefined), false, 'ambiguous', undefined],
  [new eventErrors.InvalidScheduledExportEventError(['x']), false, 'ambiguous', undefined],
  [new archiveErrors.ArchiveError('?'), false, 'ambiguous', undefined],
  [new archiveErrors.ArchiveRejectedError('gone'), false, 'ambiguous', undefined],
  [new archiveErrors.CorruptArchiveError('bad zip'), false, 'ambiguous', undefined],
  [new archiveErrors.TableRowCountMismatchError('rows differ'), false, 'ambiguous', undefined],
  [new archiveErrors.ArchiveRetryableError('later'), false, 'ambiguous', undefined],
  [new archiveErrors.ArchiveClaimRefusedError(SPOT, 'ex_x', undefined), false, 'ambiguous', undefined],
  [new archiveErrors.ArchivedObjectMissingError('exports/x/_manifest.json'), false, 'ambiguous', undefined],
  [
    new archiveErrors.ArchiveReadError('exports/x/_manifest.json', 'S3 answered 403'),
    false,
    'ambiguous',
    undefined,
  ],
  // The catalog (lib/glue): passing trouble when its cause is
  [
    new glueErrors.CatalogPartitionError(
      { databaseName: 'db', tableName: 't', values: [SPOT, '2024-05-01'] },
      { cause: Object.assign(new Error('denied'), { name: 'AccessDeniedException', $fault: 'client' }) },
    ),
    false,
    'ambiguous',
    undefined,
  ],
  // The API's own answers (lib/http)
  [new httpErrors.ProblemError({ type: 'spot-not-allowed' }), false, 'ambiguous', '403 spot-not-allowed'],
];

function createOf(error: unknown): string {
  const kind = createFailureKind(error);
  return kind === 'deferred' ? `${kind} ${upstreamWaitKindOf(error)}` : kind;
}

function problemOf(error: unknown): string | undefined {
  const problem = problemForError(error);
  return problem === undefined ? undefined : `${problem.status} ${problem.type}`;
}

describe('error classification', () => {
  it.each(classifications)('%s: retryable %s, create %s, problem %s', (error, retryable, create, problem) => {
    // Act / Assess
    expect(isClassified(error)).toBe(true);
    expect(isTransientFailure(error)).toBe(retryable);
    expect(createOf(error)).toBe(create);
    expect(problemOf(error)).toBe(problem);
  });

  it('lists every error class lib/ exports', () => {
    // Prepare
    const modules = [
      openWebErrors,
      recordErrors,
      queueErrors,
      workflowErrors,
      coverageErrors,
      backfillErrors,
      reconcilerErrors,
      eventErrors,
      archiveErrors,
      glueErrors,
      httpErrors,
    ];
    const listed = new Set(classifications.map(([error]) => error.constructor));

    // Act
    const errorClasses = modules
      .flatMap((module) => Object.values(module))
      .filter((value) => typeof value === 'function' && value.prototype instanceof Error);

    // Assess
    expect(errorClasses.filter((errorClass) => !listed.has(errorClass)).map(({ name }) => name)).toEqual([]);
  });

  it('gives each class a name of its own, set by the class rather than read from its class name', () => {
    // Prepare: the shipped bundles are minified without keepNames, so class names are renamed.
    const nameByClass = new Map(classifications.map(([error]) => [error.constructor, error]));

    // Act
    const names = [...nameByClass.values()].map((error) => ({
      name: error.name,
      own: Object.hasOwn(error, 'name'),
    }));

    // Assess: an own property, and no two classes share one (a subclass that sets none inherits its parent's).
    expect(names.filter(({ own }) => !own)).toEqual([]);
    expect(new Set(names.map(({ name }) => name)).size).toBe(names.length);
  });

  it('says how loud it is in the logs: the workflow outcomes routine, verdicts a warning, the rest errors', () => {
    // Prepare
    const routine = new Set([
      'ExportStillProcessing',
      'ExportFinishing',
      'ExportPollingTimedOut',
      'UpstreamUnavailable',
      'ExportCreateDeferred',
    ]);
    const warnings = new Set(['ExportCreateRejected', 'ExportArchiveRetry']);

    // Act
    const levels = classifications
      .map(([error]) => error)
      .filter(isClassified)
      .map((error) => [error.name, error.logLevel] as const);

    // Assess
    expect(levels).toEqual(
      levels.map(([name]) => [name, routine.has(name) ? 'info' : warnings.has(name) ? 'warn' : 'error']),
    );
    expect(
      levels
        .filter(([, level]) => level === 'info')
        .map(([name]) => name)
        .sort(),
    ).toEqual([...routine].sort());
  });

  it('tells when a deferred create may go again, when the upstream or the pacer said', () => {
    // Act / Assess
    expect(retryAtMsOf(new UpstreamRateLimitedError(1200), 10_000)).toBe(11_200);
    expect(retryAtMsOf(new UpstreamAuthPacedError(SPOT, 1500), 10_000)).toBe(11_500);
    expect(retryAtMsOf(new UpstreamRateLimitedError(undefined), 10_000)).toBeUndefined();
    expect(retryAtMsOf(new UpstreamUnavailableError('down'), 10_000)).toBeUndefined();
  });

  it('treats an unknown error by its shape: transient when AWS or the network says so, ambiguous, a generic 500', () => {
    // Prepare
    const throttled = Object.assign(new Error('slow down'), { name: 'ThrottlingException', $retryable: {} });
    const denied = Object.assign(new Error('no'), { name: 'AccessDeniedException', $fault: 'client' });
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });

    // Act / Assess
    expect([throttled, denied, reset, 'a string'].map(isTransientFailure)).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect([throttled, 'a string'].map(createFailureKind)).toEqual(['ambiguous', 'ambiguous']);
    expect([throttled, 'a string'].map(problemForError)).toEqual([undefined, undefined]);
  });
});
