import { describe, expect, it } from 'vitest';
import { PROBLEMS, ProblemType, renderProblem } from '../../../../lib/errors/problems';

describe('the problems table', () => {
  it('reads every kind of problem with a status, a title and a detail of its own', () => {
    // Act
    const kinds = Object.values(ProblemType).map((type) => [type, PROBLEMS[type]] as const);

    // Assess
    expect(Object.keys(PROBLEMS).sort()).toEqual(Object.values(ProblemType).sort());
    for (const [type, { status, title, detail }] of kinds) {
      expect(status >= 400 && status < 600, type).toBe(true);
      expect(title.length, type).toBeGreaterThan(0);
      expect(detail, type).toBeDefined();
    }
    expect(new Set(kinds.map(([, { title }]) => title)).size).toBe(kinds.length);
  });

  it('renders a problem with a fixed detail from its type alone', () => {
    // Act / Assess
    expect(renderProblem({ type: ProblemType.EXPORT_NOT_FOUND })).toEqual({
      status: 404,
      type: 'export-not-found',
      title: 'Export not found',
      detail: 'No export with this id exists for this spot.',
    });
  });

  it('builds a detail and extension members from the data, and leaves out members without a value', () => {
    // Act
    const finished = renderProblem({
      type: ProblemType.EXPORT_ALREADY_FINISHED,
      exportId: 'ex_1',
      exportStatus: 'FAILED',
    });
    const busy = renderProblem({ type: ProblemType.SPOT_BUSY, activeExportId: undefined });

    // Assess
    expect(finished.detail).toBe('The export finished with status FAILED and can no longer be aborted.');
    expect(finished.extensions).toEqual({ exportId: 'ex_1', exportStatus: 'FAILED' });
    expect(busy).not.toHaveProperty('extensions');
    expect(renderProblem({ type: ProblemType.SPOT_BUSY, activeExportId: 'ex_2' }).extensions).toEqual({
      activeExportId: 'ex_2',
    });
  });

  it('tells missing credentials from unusable ones, naming where they were looked for and nothing of their value', () => {
    // Act
    const missing = renderProblem({
      type: ProblemType.SPOT_NOT_CONFIGURED,
      spotId: 'sp_a',
      source: 'secret s',
      credentials: 'missing',
    });
    const unusable = renderProblem({
      type: ProblemType.SPOT_NOT_CONFIGURED,
      spotId: 'sp_a',
      source: 'secret s',
      credentials: 'unusable',
    });

    // Assess
    expect(missing.detail).toBe('No OpenWeb credentials are configured for spot sp_a: looked in secret s.');
    expect(unusable.detail).toBe('The OpenWeb credentials of spot sp_a in secret s are not usable.');
  });

  it('gives Retry-After in whole seconds, at least one, and says whether sign-ins or requests are limited', () => {
    // Act
    const paced = renderProblem({
      type: ProblemType.UPSTREAM_RATE_LIMITED,
      wait: 'auth-paced',
      retryAfterMs: 10,
    });
    const throttled = renderProblem({
      type: ProblemType.UPSTREAM_RATE_LIMITED,
      wait: 'throttled',
      retryAfterMs: undefined,
    });

    // Assess
    expect(paced.headers).toEqual({ 'retry-after': '1' });
    expect(paced.detail).toContain('sign-in');
    expect(throttled).not.toHaveProperty('headers');
    expect(throttled.detail).toBe('OpenWeb is limiting requests; retry later.');
  });

  it('lists the invalid fields of an invalid request, and the upstream’s own words when it gave any', () => {
    // Prepare
    const errors = [{ field: 'query.limit', message: 'must be at most 100' }];

    // Act / Assess
    expect(renderProblem({ type: ProblemType.INVALID_REQUEST, errors }).errors).toEqual(errors);
    expect(
      renderProblem({ type: ProblemType.UPSTREAM_REJECTED_REQUEST, upstreamMessage: 'range too long' })
        .detail,
    ).toBe('range too long');
    expect(
      renderProblem({ type: ProblemType.UPSTREAM_REJECTED_REQUEST, upstreamMessage: undefined }).detail,
    ).toBe('OpenWeb refused the export request.');
  });
});
