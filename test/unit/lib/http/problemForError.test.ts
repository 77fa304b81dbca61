import { describe, expect, it } from 'vitest';
import { SpotBusyError } from '../../../../lib/exports/queue/errors';
import {
  ExportAlreadyFinishedError,
  ExportNotFoundError,
  IdempotencyKeyReusedError,
  IllegalTransitionError,
  InvalidPaginationTokenError,
  TransitionConflictError,
} from '../../../../lib/exports/record/errors';
import {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  AuthRejectedError,
  CredentialsNotFoundError,
  CredentialsUnavailableError,
  ExportConflictError,
  InvalidCredentialsError,
  InvalidExportRequestError,
  SpotForbiddenError,
  TokenUnavailableError,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamRequestRejectedError,
  UpstreamUnavailableError,
} from '../../../../lib/exports/upstream/errors';
import { ProblemError } from '../../../../lib/http/ProblemError';
import { problemForError } from '../../../../lib/http/problemForError';
import { exportRecordFixture, idempotencyRecordFixture } from '../../../support/exportRecordFixtures';

const SPOT = 'sp_abc';
const failed = exportRecordFixture({ status: 'FAILED', failureReason: 'no' });
const completed = exportRecordFixture({ status: 'COMPLETED' });
const idempotencyRecord = idempotencyRecordFixture({ spotId: SPOT, exportId: failed.exportId });
const timeoutCause = Object.assign(new Error('aborted'), { name: 'AbortError' });

describe('problemForError', () => {
  it.each([
    ['an unknown export', new ExportNotFoundError(SPOT, 'ex_x'), 404, 'export-not-found'],
    ['a busy spot', new SpotBusyError(SPOT, undefined), 409, 'spot-busy'],
    ['an abort after completion', new ExportAlreadyFinishedError(completed), 409, 'export-already-finished'],
    [
      'an upstream export not ours',
      new ExportConflictError(SPOT, undefined),
      409,
      'upstream-export-in-progress',
    ],
    [
      'a lost race',
      new IllegalTransitionError({ from: 'COMPLETED', to: 'ABORTING', exportId: 'ex_x' }),
      409,
      'export-changed-concurrently',
    ],
    [
      'a version conflict',
      new TransitionConflictError({ current: completed, to: 'ABORTING', expectedFrom: ['PROCESSING'] }),
      409,
      'export-changed-concurrently',
    ],
    [
      'a reused idempotency key',
      new IdempotencyKeyReusedError(idempotencyRecord),
      422,
      'idempotency-key-reused',
    ],
    [
      'a spot without credentials',
      new CredentialsNotFoundError(SPOT, 'secret s'),
      422,
      'spot-not-configured',
    ],
    [
      'malformed stored credentials',
      new InvalidCredentialsError(SPOT, 'secret s', ['x']),
      422,
      'spot-not-configured',
    ],
    [
      'an invalid request upstream',
      new InvalidExportRequestError('bad range'),
      422,
      'upstream-rejected-request',
    ],
    ['a forged page token', new InvalidPaginationTokenError(), 400, 'invalid-request'],
    ['rejected credentials', new AuthRejectedError(SPOT), 502, 'upstream-credentials-rejected'],
    ['a forbidden spot', new SpotForbiddenError(SPOT), 502, 'upstream-credentials-rejected'],
    ['an unreadable answer', new UpstreamProtocolError('?', 200, ''), 502, 'upstream-protocol-error'],
    ['another upstream refusal', new UpstreamRequestRejectedError(418, undefined), 502, 'upstream-error'],
    [
      'an unreachable upstream',
      new UpstreamUnavailableError('down', { statusCode: 503 }),
      503,
      'upstream-unavailable',
    ],
    ['no token in time', new TokenUnavailableError(SPOT), 503, 'upstream-unavailable'],
    ['a rate-limited upstream', new UpstreamRateLimitedError(undefined), 503, 'upstream-rate-limited'],
    [
      'unreadable credentials',
      new CredentialsUnavailableError(SPOT, 'secret s'),
      503,
      'credentials-unavailable',
    ],
    [
      'an upstream timeout',
      new UpstreamUnavailableError('slow', { cause: timeoutCause }),
      504,
      'upstream-timeout',
    ],
    [
      'a create that timed out',
      new AmbiguousCreateError(SPOT, AmbiguousCreateReason.TIMEOUT),
      504,
      'upstream-timeout',
    ],
  ])('maps %s to %i %s', (_, error, status, type) => {
    // Act
    const problem = problemForError(error);

    // Assess
    expect(problem).toMatchObject({ status, type });
  });

  it('names the active export of a busy spot', () => {
    // Act
    const problem = problemForError(
      new SpotBusyError(SPOT, {
        spotId: SPOT,
        exportId: 'ex_active',
        acquiredAt: '2025-01-01T00:00:00.000Z',
        expiresAtEpochSeconds: 1,
      }),
    );

    // Assess
    expect(problem?.extensions).toEqual({ activeExportId: 'ex_active' });
  });

  it('gives the status a finished export ended with', () => {
    // Act
    const problem = problemForError(new ExportAlreadyFinishedError(completed));

    // Assess
    expect(problem?.extensions).toEqual({ exportId: completed.exportId, exportStatus: 'COMPLETED' });
  });

  it('gives Retry-After in whole seconds for a rate-limited call', () => {
    // Act / Assess
    expect(problemForError(new UpstreamRateLimitedError(1200))?.headers).toEqual({ 'retry-after': '2' });
  });

  it('passes the upstream explanation of an invalid request on', () => {
    // Act / Assess
    expect(problemForError(new InvalidExportRequestError('range too long'))?.detail).toBe('range too long');
  });

  it("renders the API's own refusals from the same table, and knows nothing of other errors", () => {
    // Act / Assess
    expect(problemForError(new ProblemError({ type: 'payload-too-large', maxBodyBytes: 16_384 }))).toEqual({
      status: 413,
      type: 'payload-too-large',
      title: 'Payload too large',
      detail: 'The request body may be at most 16384 bytes.',
    });
    expect(problemForError(new Error('boom'))).toBeUndefined();
    expect(problemForError('a string')).toBeUndefined();
  });
});
