import { describe, expect, it } from 'vitest';
import { readSpotId } from '../../../../lib/http/readSpotId';
import { apiEvent } from '../../../support/apiGatewayEvents';
import { problemOf } from '../../../support/problemOf';

describe('readSpotId', () => {
  it('reads x-spot-id whatever the header name case', () => {
    // Act / Assess
    expect(readSpotId(apiEvent({ headers: { 'x-spot-id': 'sp_abc' } }))).toBe('sp_abc');
    expect(readSpotId({ ...apiEvent(), headers: { 'X-Spot-Id': 'sp_abc' } })).toBe('sp_abc');
  });

  it.each([
    ['missing', {}, 'is required'],
    ['malformed', { 'x-spot-id': 'sp abc; drop table' }, expect.stringContaining('sp_')],
    ['two values joined by API Gateway', { 'x-spot-id': 'sp_a,sp_b' }, expect.stringContaining('sp_')],
  ])('answers 400 when %s, without echoing the value', (_, headers, message) => {
    // Act
    const problem = problemOf(() => readSpotId(apiEvent({ headers })));

    // Assess
    expect(problem).toMatchObject({ status: 400, errors: [{ field: 'header.x-spot-id', message }] });
    expect(JSON.stringify(problem)).not.toContain('drop table');
  });
});
