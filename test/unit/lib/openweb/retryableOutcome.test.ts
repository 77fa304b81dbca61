import { describe, expect, it } from 'vitest';
import { UpstreamRateLimitedError, UpstreamUnavailableError } from '../../../../lib/exports/upstream/errors';
import { retryableReply, serverError, unavailable } from '../../../../lib/openweb/retryableOutcome';
import { REQUEST_TIMEOUT_CODE, RequestDelivery } from '../../../../lib/openweb/transportFailure';

const reply = (statusCode: number, retryAfterMs?: number) => ({ statusCode, bodyText: '', retryAfterMs });

describe('retryableReply', () => {
  it('makes a 429 a rate limit that waits as long as the upstream said', () => {
    // Act
    const outcome = retryableReply(reply(429, 1500));

    // Assess
    expect(outcome).toMatchObject({ kind: 'retryable', reason: 'HTTP 429', retryAfterMs: 1500 });
    expect(outcome?.kind === 'retryable' && outcome.error).toBeInstanceOf(UpstreamRateLimitedError);
  });

  it('makes a 5xx an unavailable upstream, and any other answer none of its business', () => {
    // Act
    const outcome = retryableReply(reply(503));

    // Assess
    expect(outcome).toMatchObject({ kind: 'retryable', reason: 'HTTP 503', retryAfterMs: undefined });
    expect(outcome?.kind === 'retryable' && outcome.error).toBeInstanceOf(UpstreamUnavailableError);
    for (const statusCode of [200, 202, 400, 404, 409])
      expect(retryableReply(reply(statusCode))).toBeUndefined();
  });
});

describe('serverError', () => {
  it('names the status it was answered', () => {
    // Act
    const error = serverError({ statusCode: 502, bodyText: '<html>bad gateway</html>' });

    // Assess
    expect(error.message).toBe('The upstream answered HTTP 502');
    expect(error.retryable).toBe(true);
  });
});

describe('unavailable', () => {
  it('tells a timeout of its own from a connection that failed, keeping the cause', () => {
    // Prepare
    const cause = new Error('socket hang up');

    // Act
    const timedOut = unavailable(
      { delivery: RequestDelivery.MAYBE_SENT, code: REQUEST_TIMEOUT_CODE, cause },
      5000,
    );
    const refused = unavailable({ delivery: RequestDelivery.NOT_SENT, code: 'ECONNREFUSED', cause }, 5000);

    // Assess
    expect(timedOut.kind === 'retryable' && timedOut.error.message).toBe(
      'The upstream did not answer within 5000 ms',
    );
    expect(refused).toMatchObject({ kind: 'retryable', reason: 'ECONNREFUSED' });
    expect(refused.kind === 'retryable' && refused.error.message).toBe(
      'The upstream could not be reached (ECONNREFUSED)',
    );
    expect(refused.kind === 'retryable' && refused.error.cause).toBe(cause);
  });
});
