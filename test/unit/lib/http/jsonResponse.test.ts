import { describe, expect, it } from 'vitest';
import { JSON_CONTENT_TYPE, jsonResponse } from '../../../../lib/http/jsonResponse';

describe('jsonResponse', () => {
  it('answers the body as JSON with its status, and any headers added', () => {
    // Act
    const response = jsonResponse(202, { exportId: 'ex_1', links: [] }, { location: '/exports/ex_1' });

    // Assess
    expect(response).toEqual({
      statusCode: 202,
      headers: { 'content-type': JSON_CONTENT_TYPE, location: '/exports/ex_1' },
      body: '{"exportId":"ex_1","links":[]}',
    });
  });
});
