import { describe, expect, it } from 'vitest';
import { PROBLEM_CONTENT_TYPE, problemResponse } from '../../../../lib/http/problemResponse';

describe('problemResponse', () => {
  it('renders an RFC 9457 body with its type under /problems/, its extensions and headers', () => {
    // Act
    const response = problemResponse(
      {
        status: 409,
        type: 'spot-busy',
        title: 'The spot is busy',
        detail: 'Spot sp_a is busy with export ex_1',
        extensions: { activeExportId: 'ex_1' },
        headers: { 'retry-after': '30' },
      },
      '/exports',
    );

    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.headers).toEqual({ 'content-type': PROBLEM_CONTENT_TYPE, 'retry-after': '30' });
    expect(JSON.parse(response.body as string)).toEqual({
      type: '/problems/spot-busy',
      title: 'The spot is busy',
      status: 409,
      detail: 'Spot sp_a is busy with export ex_1',
      instance: '/exports',
      activeExportId: 'ex_1',
    });
  });

  it('falls back to about:blank, leaves out what is not there, and lists validation errors', () => {
    // Act
    const bare = JSON.parse(problemResponse({ status: 500, title: 'Internal Server Error' }).body as string);
    const invalid = JSON.parse(
      problemResponse({
        status: 400,
        type: 'invalid-request',
        title: 'Invalid request',
        errors: [{ field: 'body.from', message: 'must be an instant' }],
      }).body as string,
    );

    // Assess
    expect(bare).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
    expect(invalid.errors).toEqual([{ field: 'body.from', message: 'must be an instant' }]);
  });

  it('keeps an extension from overriding the fields the standard defines', () => {
    // Act
    const body = JSON.parse(
      problemResponse({ status: 404, type: 'not-found', title: 'Not found', extensions: { status: 200 } })
        .body as string,
    );

    // Assess
    expect(body.status).toBe(404);
  });
});
