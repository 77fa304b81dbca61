import { describe, expect, it } from 'vitest';
import { headerValue, isApiGatewayEvent } from '../../../../lib/http/apiGatewayEvent';
import { apiEvent } from '../../../support/apiGatewayEvents';

describe('isApiGatewayEvent', () => {
  it('tells an HTTP API event (payload 2.0) from a workflow task or a schedule event', () => {
    // Act / Assess
    expect(isApiGatewayEvent(apiEvent())).toBe(true);
    for (const other of [
      null,
      'GET /exports',
      { action: 'poll', spotId: 'sp_a', exportId: 'ex_1' },
      { source: 'reconciler' },
      { version: '1.0', requestContext: { http: { method: 'GET' } } },
      { version: '2.0', requestContext: {} },
    ])
      expect(isApiGatewayEvent(other)).toBe(false);
  });
});

describe('headerValue', () => {
  it('finds a header whatever the case of its name, and answers undefined for a missing one', () => {
    // Prepare
    const event = { ...apiEvent(), headers: { 'Idempotency-Key': 'k-1', 'x-spot-id': 'sp_a' } };

    // Act / Assess
    expect(headerValue(event, 'idempotency-key')).toBe('k-1');
    expect(headerValue(event, 'X-Spot-Id')).toBe('sp_a');
    expect(headerValue(event, 'authorization')).toBeUndefined();
    expect(headerValue({ ...event, headers: undefined } as never, 'x-spot-id')).toBeUndefined();
  });
});
