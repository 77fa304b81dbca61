import { describe, expect, it } from 'vitest';
import { readListQuery } from '../../../../lib/http/readListQuery';
import { apiEvent } from '../../../support/apiGatewayEvents';
import { problemOf } from '../../../support/problemOf';

describe('readListQuery', () => {
  it('reads limit, nextToken and status', () => {
    // Act
    const query = readListQuery(
      apiEvent({ query: { limit: '100', nextToken: 'eyJhIjoiYiJ9', status: 'COMPLETED' } }),
    );

    // Assess
    expect(query).toEqual({ limit: 100, nextToken: 'eyJhIjoiYiJ9', status: 'COMPLETED' });
    expect(readListQuery(apiEvent())).toEqual({});
  });

  it.each([
    [{ limit: '0' }, 'query.limit'],
    [{ limit: '101' }, 'query.limit'],
    [{ limit: '1.5' }, 'query.limit'],
    [{ limit: '2,3' }, 'query.limit'],
    [{ status: 'completed' }, 'query.status'],
    [{ nextToken: 'not a token!' }, 'query.nextToken'],
    [{ nextToken: 'a'.repeat(2049) }, 'query.nextToken'],
    [{ limt: '5' }, 'query.limt'],
    [{ 'bad name!': '5' }, 'query'],
  ])('answers 400 for %j', (query, field) => {
    // Act
    const problem = problemOf(() => readListQuery(apiEvent({ query })));

    // Assess
    expect(problem).toMatchObject({ status: 400, errors: [{ field }] });
  });
});
