import { describe, expect, it } from 'vitest';
import { isTransientFailure } from '../../../../../lib/exports/record/failureReasons';
import {
  UpstreamRequestRejectedError,
  UpstreamUnavailableError,
} from '../../../../../lib/exports/upstream/errors';

const error = (name: string, fields: object = {}) => Object.assign(new Error(name), { name }, fields);

describe('isTransientFailure', () => {
  it('believes an error that classifies itself', () => {
    // Act / Assess
    expect(isTransientFailure(new UpstreamUnavailableError('down'))).toBe(true);
    expect(isTransientFailure(new UpstreamRequestRejectedError(418, undefined))).toBe(false);
  });

  it.each([
    ['an AWS server fault', error('InternalServerError', { $fault: 'server' })],
    ['an AWS error marked retryable', error('ThrottlingException', { $fault: 'client', $retryable: {} })],
    // As the SDK hands them over once its retries are spent: client faults, not marked retryable.
    [
      'DynamoDB throttling',
      error('ThrottlingException', { $fault: 'client', $metadata: { httpStatusCode: 400 } }),
    ],
    ['DynamoDB throughput exceeded', error('ProvisionedThroughputExceededException', { $fault: 'client' })],
    ['DynamoDB request limit', error('RequestLimitExceeded', { $fault: 'client' })],
    ['S3 slowing down', error('SlowDown', { $fault: 'client', $metadata: { httpStatusCode: 503 } })],
    ['an AWS 429', error('TooManyRequests', { $fault: 'client', $metadata: { httpStatusCode: 429 } })],
    ['a timeout', error('TimeoutError')],
    ['an abort', error('AbortError')],
    ['a reset connection', error('Error', { code: 'ECONNRESET' })],
    ['a DNS failure in the cause', error('TypeError', { cause: { code: 'EAI_AGAIN' } })],
  ])('treats %s as passing', (_kind, failure) => {
    // Act / Assess
    expect(isTransientFailure(failure)).toBe(true);
  });

  it.each([
    ['an AWS client fault', error('AccessDeniedException', { $fault: 'client' })],
    [
      'a validation failure',
      error('ValidationException', { $fault: 'client', $metadata: { httpStatusCode: 400 } }),
    ],
    ['a throttling name on an error AWS did not send', error('ThrottlingException')],
    ['a bug', new TypeError('undefined is not a function')],
    ['an unknown code', error('Error', { code: 'EACCES' })],
    ['something not an error', { code: 'ECONNRESET' }],
  ])('treats %s as lasting', (_kind, failure) => {
    // Act / Assess
    expect(isTransientFailure(failure)).toBe(false);
  });
});
