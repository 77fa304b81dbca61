import { describe, expect, it } from 'vitest';
import { httpResponseFromResult } from '../../../local/http/httpResponseFromResult';

describe('httpResponseFromResult', () => {
  it('writes a structured result as given, header names lower-cased and values as text', () => {
    // Act
    const response = httpResponseFromResult({
      statusCode: 202,
      headers: {
        'Content-Type': 'application/json',
        Location: '/exports/ex_1',
        'X-Count': 3,
        'X-Flag': true,
      },
      body: '{"ok":true}',
    });

    // Assess
    expect(response.statusCode).toBe(202);
    expect(response.headers).toEqual({
      'content-type': 'application/json',
      location: '/exports/ex_1',
      'x-count': '3',
      'x-flag': 'true',
    });
    expect(response.body.toString('utf8')).toBe('{"ok":true}');
  });

  it('turns cookies into set-cookie headers', () => {
    // Act
    const response = httpResponseFromResult({ statusCode: 200, cookies: ['a=1; Path=/', 'b=2'] });

    // Assess
    expect(response.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2']);
    expect(response.body.length).toBe(0);
  });

  it('decodes a base64-encoded body to its bytes', () => {
    // Prepare
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff]);

    // Act
    const response = httpResponseFromResult({
      statusCode: 200,
      headers: { 'content-type': 'application/zip' },
      body: bytes.toString('base64'),
      isBase64Encoded: true,
    });

    // Assess
    expect(response.body.equals(bytes)).toBe(true);
  });

  it('answers a result without a status code as API Gateway does: 200 with the JSON of it', () => {
    // Act
    const object = httpResponseFromResult({ exportId: 'ex_1', status: 'PROCESSING' });
    const text = httpResponseFromResult('plain text');

    // Assess
    expect(object).toMatchObject({ statusCode: 200, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(object.body.toString('utf8'))).toEqual({ exportId: 'ex_1', status: 'PROCESSING' });
    expect(text.statusCode).toBe(200);
    expect(text.body.toString('utf8')).toBe('plain text');
  });
});
