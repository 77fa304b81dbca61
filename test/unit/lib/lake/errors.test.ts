import { InternalServerException } from '@aws-sdk/client-athena';
import { describe, expect, it } from 'vitest';
import { TableQueryFailedError, TableQueryTimedOutError } from '../../../../lib/lake/errors';

describe('lake errors', () => {
  it('a failed query says which engine and why; retryable only when its cause is passing trouble', () => {
    // Prepare
    const throttled = new InternalServerException({ message: 'internal error', $metadata: {} });

    // Act
    const refused = new TableQueryFailedError('Athena', 'query q-1 FAILED: TABLE_NOT_FOUND');
    const passing = new TableQueryFailedError('Athena', 'InternalServerException: internal error', {
      cause: throttled,
    });

    // Assess
    expect(refused.message).toBe('Athena did not answer the query: query q-1 FAILED: TABLE_NOT_FOUND');
    expect(refused).toMatchObject({ name: 'TableQueryFailedError', engine: 'Athena', retryable: false });
    expect(refused.problem).toBeUndefined();
    expect(passing.retryable).toBe(true);
  });

  it('a query that ran out of time names the query and the time, and may be asked again', () => {
    // Act
    const error = new TableQueryTimedOutError('Athena', 'q-2', 60_000);

    // Assess
    expect(error.message).toBe('Athena query q-2 was still running after 60000 ms');
    expect(error).toMatchObject({
      name: 'TableQueryTimedOutError',
      queryId: 'q-2',
      timeoutMs: 60_000,
      retryable: true,
    });
  });
});
