import { describe, expect, it } from 'vitest';
import { executeApiRegion, resolveApiEndpoint } from '../../../cli/ApiEndpoint';
import { DEFAULT_LOCAL_API_URL } from '../../../lib/settings/localRuntimeLayout';

describe('resolveApiEndpoint', () => {
  it('defaults to the local runtime, unsigned', () => {
    // Act
    const endpoint = resolveApiEndpoint({ env: {} });

    // Assess
    expect(endpoint.url.href).toBe(`${DEFAULT_LOCAL_API_URL}/`);
    expect(endpoint.sigV4).toBeUndefined();
  });

  it('prefers --api over OPENWEB_EXPORTS_API', () => {
    // Act
    const endpoint = resolveApiEndpoint({
      api: 'http://127.0.0.1:4000',
      env: { OPENWEB_EXPORTS_API: 'http://127.0.0.1:5000' },
    });

    // Assess
    expect(endpoint.url.port).toBe('4000');
  });

  it('signs for the region of an execute-api host, even when --region says otherwise', () => {
    // Act
    const endpoint = resolveApiEndpoint({
      api: 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod',
      region: 'us-east-1',
      env: { AWS_REGION: 'us-west-2' },
    });

    // Assess
    expect(endpoint.sigV4).toEqual({ region: 'eu-west-1' });
  });
});

describe('executeApiRegion', () => {
  it.each([
    ['abc123.execute-api.eu-west-1.amazonaws.com', 'eu-west-1'],
    ['ABC123.execute-api.us-gov-west-1.amazonaws.com', 'us-gov-west-1'],
    ['abc123.execute-api.cn-north-1.amazonaws.com.cn', 'cn-north-1'],
    ['abc123.execute-api.eu-west-1.amazonaws.com.evil.test', undefined],
    ['exports.example.test', undefined],
    ['127.0.0.1', undefined],
  ])('reads %s as %s', (hostname, region) => {
    // Act
    const actual = executeApiRegion(hostname);

    // Assess
    expect(actual).toBe(region);
  });
});
