import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import { isValidExportId } from '../exports/record/exportId';
import { SPOT_ID_PATTERN } from '../exports/record/spotId';
import { headerValue, isApiGatewayEvent } from './apiGatewayEvent';
import { SPOT_ID_HEADER } from './readSpotId';

const CORRELATION_KEYS = ['apiRequestId', 'spotId', 'exportId'] as const;

type CorrelationKeys = Partial<Record<(typeof CORRELATION_KEYS)[number], string>>;

/**
 * Tags every log line of an invocation with the API request id, the spot and the
 * export it concerns, from whichever source the event came. Values that do not pass
 * validation are left out, so garbage from a caller never reaches the logs as a key.
 */
export function logCorrelationKeys(logger: Logger): MiddlewareObj {
  function appendCorrelationKeys(request: Request): void {
    logger.appendKeys(correlationKeysOf(request.event));
  }

  function removeCorrelationKeys(): void {
    logger.removeKeys([...CORRELATION_KEYS]);
  }

  return { before: appendCorrelationKeys, after: removeCorrelationKeys, onError: removeCorrelationKeys };
}

export function correlationKeysOf(event: unknown): CorrelationKeys {
  if (isApiGatewayEvent(event)) {
    return valid({
      apiRequestId: event.requestContext.requestId,
      spotId: headerValue(event, SPOT_ID_HEADER),
      exportId: event.pathParameters?.exportId,
    });
  }
  if (typeof event !== 'object' || event === null) return {};
  const { spotId, exportId } = event as { spotId?: unknown; exportId?: unknown };
  return valid({ spotId, exportId });
}

function valid(candidates: Record<string, unknown>): CorrelationKeys {
  const keys: CorrelationKeys = {};
  const { apiRequestId, spotId, exportId } = candidates;
  if (typeof apiRequestId === 'string' && apiRequestId.length <= 128) keys.apiRequestId = apiRequestId;
  if (typeof spotId === 'string' && SPOT_ID_PATTERN.test(spotId)) keys.spotId = spotId;
  if (isValidExportId(exportId)) keys.exportId = exportId;
  return keys;
}
