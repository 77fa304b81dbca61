import { describe, expect, it } from 'vitest';
import { erasureIdOf } from '../../../../lib/exports/erasure/ErasureRecord';
import { readErasureId } from '../../../../lib/http/readErasureId';
import { apiEvent } from '../../../support/apiGatewayEvents';
import { problemOf } from '../../../support/problemOf';

describe('readErasureId', () => {
  it('reads a well-formed {erasureId} path parameter', () => {
    // Prepare
    const erasureId = erasureIdOf('sp_demo', 'u_1');

    // Act / Assess
    expect(readErasureId(apiEvent({ pathParameters: { erasureId } }))).toBe(erasureId);
  });

  it('answers a missing or malformed id as not found, like an unknown one', () => {
    // Act
    const problems = [
      problemOf(() => readErasureId(apiEvent())),
      problemOf(() => readErasureId(apiEvent({ pathParameters: { erasureId: 'er_../../etc' } }))),
      problemOf(() =>
        readErasureId(apiEvent({ pathParameters: { erasureId: 'bf_01kak3f4v2qz7m9d8c5b4a3e2f' } })),
      ),
    ];

    // Assess
    for (const problem of problems) {
      expect(problem?.status).toBe(404);
      expect(problem?.type).toMatch(/erasure-not-found$/);
    }
  });
});
