import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { headerValue } from './apiGatewayEvent';
import { invalidRequest } from './invalidRequest';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const MAX_IDEMPOTENCY_KEY_CHARS = 255;

export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_CHARS}}$`);
/** Keys from the API live apart from the scheduler's `schedule:` keys, so a caller cannot collide with a schedule. */
const API_KEY_NAMESPACE = 'api:';

/**
 * The `Idempotency-Key` header (1 to 255 printable ASCII characters) as stored,
 * or undefined when absent. @throws ProblemError 400
 */
export function readIdempotencyKey(event: APIGatewayProxyEventV2): string | undefined {
  const value = headerValue(event, IDEMPOTENCY_KEY_HEADER);
  if (value === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw invalidRequest([
      {
        field: `header.${IDEMPOTENCY_KEY_HEADER}`,
        message: `must be 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} printable ASCII characters`,
      },
    ]);
  }
  return `${API_KEY_NAMESPACE}${value}`;
}
