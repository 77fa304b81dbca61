import { describe, expect, it } from 'vitest';
import {
  MAX_COVERAGE_PAGE_WINDOWS,
  MAX_COVERAGE_RANGE_DAYS,
} from '../../../../lib/exports/coverage/spotCoverage';
import { readCoverageRequest } from '../../../../lib/http/readCoverageRequest';
import { apiEvent } from '../../../support/apiGatewayEvents';
import { problemOf } from '../../../support/problemOf';

const NOW_MS = Date.parse('2026-11-01T12:00:00Z');
const coverageEvent = (query: Record<string, string>) =>
  apiEvent({ route: '/spots/{spotId}/coverage', headers: { 'x-spot-id': 'sp_a' }, query });

describe('readCoverageRequest', () => {
  it('reads the spot, the range, the page size and the page token', () => {
    // Act
    const query = readCoverageRequest(
      coverageEvent({
        from: '2026-10-01T00:00:00Z',
        until: '2026-10-31T00:00:00Z',
        limit: '50',
        nextToken: 'eyJhIjoiYiJ9',
      }),
      NOW_MS,
    );

    // Assess
    expect(query).toEqual({
      spotId: 'sp_a',
      fromMs: Date.parse('2026-10-01T00:00:00Z'),
      untilMs: Date.parse('2026-10-31T00:00:00Z'),
      limit: 50,
      nextToken: 'eyJhIjoiYiJ9',
    });
    expect(readCoverageRequest(coverageEvent({}), NOW_MS)).toEqual({ spotId: 'sp_a' });
  });

  it('names every field that is wrong at once', () => {
    // Act
    const problem = problemOf(() =>
      readCoverageRequest(
        coverageEvent({
          from: 'yesterday',
          limit: String(MAX_COVERAGE_PAGE_WINDOWS + 1),
          nextToken: '<x>',
          sort: 'asc',
        }),
        NOW_MS,
      ),
    );

    // Assess
    expect(problem?.status).toBe(400);
    expect(problem?.errors?.map((error) => error.field).sort()).toEqual([
      'query.from',
      'query.limit',
      'query.nextToken',
      'query.sort',
    ]);
  });

  it('refuses a range that is empty or longer than allowed, naming the field to fix', () => {
    // Act
    const backwards = problemOf(() =>
      readCoverageRequest(
        coverageEvent({ from: '2026-10-02T00:00:00Z', until: '2026-10-01T00:00:00Z' }),
        NOW_MS,
      ),
    );
    const futureFrom = problemOf(() =>
      readCoverageRequest(coverageEvent({ from: '2026-11-02T00:00:00Z' }), NOW_MS),
    );
    const tooLong = problemOf(() =>
      readCoverageRequest(
        coverageEvent({ from: '2020-01-01T00:00:00Z', until: '2026-10-01T00:00:00Z' }),
        NOW_MS,
      ),
    );

    // Assess
    expect(backwards?.errors).toEqual([{ field: 'query.until', message: 'must be after from' }]);
    expect(futureFrom?.errors).toEqual([
      { field: 'query.from', message: 'must be before until, which is now when not given' },
    ]);
    expect(tooLong?.errors).toEqual([
      { field: 'query.until', message: `the range may span at most ${MAX_COVERAGE_RANGE_DAYS} days` },
    ]);
  });
});
