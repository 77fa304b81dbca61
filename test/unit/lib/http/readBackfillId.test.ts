import { describe, expect, it } from 'vitest';
import { newBackfillId } from '../../../../lib/exports/backfill/BackfillRecord';
import { readBackfillId } from '../../../../lib/http/readBackfillId';
import { apiEvent } from '../../../support/apiGatewayEvents';
import { problemOf } from '../../../support/problemOf';

describe('readBackfillId', () => {
  it('reads a well-formed {backfillId} path parameter', () => {
    // Prepare
    const backfillId = newBackfillId(Date.parse('2026-11-01T00:00:00Z'));

    // Act / Assess
    expect(readBackfillId(apiEvent({ pathParameters: { backfillId } }))).toBe(backfillId);
  });

  it('answers a missing or malformed id as not found, like an unknown one', () => {
    // Act
    const problems = [
      problemOf(() => readBackfillId(apiEvent())),
      problemOf(() => readBackfillId(apiEvent({ pathParameters: { backfillId: 'bf_../../etc' } }))),
      problemOf(() =>
        readBackfillId(apiEvent({ pathParameters: { backfillId: 'ex_01kak3f4v2qz7m9d8c5b4a0001' } })),
      ),
    ];

    // Assess
    for (const problem of problems) expect(problem?.status).toBe(404);
  });
});
