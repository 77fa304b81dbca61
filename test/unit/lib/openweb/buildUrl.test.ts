import { describe, expect, it } from 'vitest';
import { buildUrl } from '../../../../lib/openweb/buildUrl';

describe('buildUrl', () => {
  it('joins the path to the base URL, keeping a path prefix and dropping trailing slashes', () => {
    // Act / Assess
    expect(buildUrl('https://api.example.com', '/v4/export')).toBe('https://api.example.com/v4/export');
    expect(buildUrl('http://127.0.0.1:8080/openweb//', '/v4/export')).toBe(
      'http://127.0.0.1:8080/openweb/v4/export',
    );
  });

  it('adds the defined query values, encoded, and leaves out the undefined ones', () => {
    // Act
    const url = buildUrl('https://api.example.com', '/v4/exports', {
      status: 'in progress',
      limit: 50,
      cursor: undefined,
      'a&b': 'c=d',
    });

    // Assess
    expect(url).toBe('https://api.example.com/v4/exports?status=in%20progress&limit=50&a%26b=c%3Dd');
  });
});
