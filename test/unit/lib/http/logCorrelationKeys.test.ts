import { describe, expect, it, vi } from 'vitest';
import { newExportId } from '../../../../lib/exports/record/exportId';
import { correlationKeysOf, logCorrelationKeys } from '../../../../lib/http/logCorrelationKeys';
import { apiEvent, silentLogger } from '../../../support/apiGatewayEvents';

describe('logCorrelationKeys', () => {
  it('takes the request id, spot and export of an API request', () => {
    // Prepare
    const exportId = newExportId();
    const event = apiEvent({ route: '/exports/{exportId}', exportId, headers: { 'x-spot-id': 'sp_abc' } });

    // Act
    const keys = correlationKeysOf(event);

    // Assess
    expect(keys).toEqual({ apiRequestId: event.requestContext.requestId, spotId: 'sp_abc', exportId });
  });

  it('takes spot and export from a workflow or schedule input, and leaves invalid values out', () => {
    // Prepare
    const exportId = newExportId();

    // Act / Assess
    expect(correlationKeysOf({ action: 'poll', spotId: 'sp_abc', exportId })).toEqual({
      spotId: 'sp_abc',
      exportId,
    });
    expect(correlationKeysOf({ spotId: 'DROP TABLE', exportId: 42 })).toEqual({});
    expect(correlationKeysOf('text')).toEqual({});
  });

  it('adds the keys before the handler and removes them after it', () => {
    // Prepare
    const logger = silentLogger();
    const append = vi.spyOn(logger, 'appendKeys');
    const remove = vi.spyOn(logger, 'removeKeys');
    const middleware = logCorrelationKeys(logger);
    const request = { event: { spotId: 'sp_abc' }, context: {}, response: null, error: null, internal: {} };

    // Act
    middleware.before?.(request as never);
    middleware.after?.(request as never);

    // Assess
    expect(append).toHaveBeenCalledWith({ spotId: 'sp_abc' });
    expect(remove).toHaveBeenCalledWith(['apiRequestId', 'spotId', 'exportId']);
  });
});
