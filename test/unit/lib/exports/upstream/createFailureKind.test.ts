import { describe, expect, it } from 'vitest';
import { UpstreamWaitKind } from '../../../../../lib/errors/ClassifiedError';
import {
  CREATE_REFUSED_REASON_PREFIX,
  REQUEST_REJECTED_REASON_PREFIX,
} from '../../../../../lib/exports/record/failureReasons';
import {
  createFailureKind,
  describeCreateFailure,
  isRequestRejected,
  refusalReason,
  retryAtMsOf,
  upstreamWaitKindOf,
} from '../../../../../lib/exports/upstream/createFailureKind';
import {
  InvalidExportRequestError,
  SpotForbiddenError,
  UpstreamRateLimitedError,
  UpstreamUnavailableError,
} from '../../../../../lib/exports/upstream/errors';

const NOW_MS = Date.parse('2026-11-01T12:00:00Z');

describe('createFailureKind and upstreamWaitKindOf', () => {
  it('defer a create the upstream throttled or could not take, saying which wait it is', () => {
    // Prepare
    const throttled = new UpstreamRateLimitedError(1200);
    const down = new UpstreamUnavailableError('down', { statusCode: 503 });

    // Act / Assess
    expect([createFailureKind(throttled), upstreamWaitKindOf(throttled)]).toEqual([
      'deferred',
      UpstreamWaitKind.THROTTLED,
    ]);
    expect([createFailureKind(down), upstreamWaitKindOf(down)]).toEqual([
      'deferred',
      UpstreamWaitKind.UNAVAILABLE,
    ]);
  });

  it('refuse what the upstream refused, and call anything unclassified ambiguous', () => {
    // Act / Assess
    expect(createFailureKind(new InvalidExportRequestError('range too long'))).toBe('refused');
    expect(createFailureKind(new SpotForbiddenError('sp_a'))).toBe('refused');
    expect(createFailureKind(new TypeError('a bug'))).toBe('ambiguous');
    expect(upstreamWaitKindOf(new TypeError('a bug'))).toBe(UpstreamWaitKind.UNAVAILABLE);
  });
});

describe('retryAtMsOf', () => {
  it('answers when a deferred create may go again if the upstream said, else nothing', () => {
    // Act / Assess
    expect(retryAtMsOf(new UpstreamRateLimitedError(1200), NOW_MS)).toBe(NOW_MS + 1200);
    expect(retryAtMsOf(new UpstreamRateLimitedError(undefined), NOW_MS)).toBeUndefined();
    expect(retryAtMsOf(new InvalidExportRequestError('bad'), NOW_MS)).toBeUndefined();
  });
});

describe('refusalReason', () => {
  it('marks a rejected request, which will never pass, apart from a refusal that may', () => {
    // Prepare
    const rejected = new InvalidExportRequestError('range too long');
    const forbidden = new SpotForbiddenError('sp_a');

    // Act / Assess
    expect(isRequestRejected(rejected)).toBe(true);
    expect(isRequestRejected(forbidden)).toBe(false);
    expect(refusalReason(rejected).startsWith(REQUEST_REJECTED_REASON_PREFIX)).toBe(true);
    expect(refusalReason(forbidden).startsWith(CREATE_REFUSED_REASON_PREFIX)).toBe(true);
  });
});

describe('describeCreateFailure', () => {
  it("uses a classified error's own reason, and an other error's name and message", () => {
    // Act / Assess
    expect(describeCreateFailure(new InvalidExportRequestError('range too long'))).toContain(
      'range too long',
    );
    expect(describeCreateFailure(new TypeError('x is undefined'))).toBe('TypeError: x is undefined');
    expect(describeCreateFailure('thrown text')).toBe('unknown error');
  });
});
