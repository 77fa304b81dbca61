import { describe, expect, it } from 'vitest';
import type { AwsCredentials } from '../../../cli/AwsCredentials';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import { createSigV4RequestSigner } from '../../../cli/sigV4RequestSigner';
import { EXPORT_ID, exportView, SPOT_ID } from './support/exportViews';
import { createTestIo } from './support/testIo';
import { isValidSigV4Signature } from './support/verifySigV4';

const EXECUTE_API_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com';
// Static test credentials, never real ones.
const TEST_CREDENTIALS: AwsCredentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const SIGNING_TIME = '2026-05-01T12:00:00Z';

interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** A fetch that records what would be sent and answers like the API. */
function recordingFetch(sent: SentRequest[]): typeof fetch {
  return async (input, init) => {
    sent.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    });
    return new Response(JSON.stringify(exportView({ status: 'REQUESTED' })), {
      status: 202,
      headers: { 'content-type': 'application/json' },
    });
  };
}

describe('SigV4 signing', () => {
  it('signs requests to an execute-api host for its region with the given credentials', async () => {
    // Prepare
    const sent: SentRequest[] = [];
    const io = createTestIo({
      fetch: recordingFetch(sent),
      now: () => Date.parse(SIGNING_TIME),
      awsCredentials: async () => TEST_CREDENTIALS,
    });

    // Act
    const code = await runCli(['start', '--api', EXECUTE_API_URL, '--spot', SPOT_ID, '--last', 'P1D'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request?.url).toBe(`${EXECUTE_API_URL}/exports`);
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20260501\/eu-west-1\/execute-api\/aws4_request, SignedHeaders=[a-z0-9;-]*\bhost\b[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(request?.headers.authorization).toMatch(/SignedHeaders=[^,]*x-spot-id/);
    expect(request?.headers['x-amz-date']).toBe('20260501T120000Z');
    expect(request?.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    // fetch sets Host itself, from the same URL that was signed.
    expect(request?.headers.host).toBeUndefined();
    expect(JSON.stringify(sent)).not.toContain(TEST_CREDENTIALS.secretAccessKey);
    expect(isValidSigV4Signature(request as SentRequest, TEST_CREDENTIALS)).toBe(true);
  });

  it('signs exactly what is sent: path, query and headers verify on the receiving side', async () => {
    // Prepare
    const sent: SentRequest[] = [];
    const io = createTestIo({
      fetch: async (input, init) => {
        await recordingFetch(sent)(input, init);
        return new Response(JSON.stringify({ items: [] }), { status: 200 });
      },
      now: () => Date.parse(SIGNING_TIME),
      awsCredentials: async () => TEST_CREDENTIALS,
    });

    // Act
    await runCli(
      [
        'list',
        '--api',
        `${EXECUTE_API_URL}/prod`,
        '--spot',
        SPOT_ID,
        '--status',
        'COMPLETED',
        '--limit',
        '5',
      ],
      io,
    );

    // Assess
    expect(sent[0]?.url).toBe(`${EXECUTE_API_URL}/prod/exports?status=COMPLETED&limit=5`);
    expect(isValidSigV4Signature(sent[0] as SentRequest, TEST_CREDENTIALS)).toBe(true);
    expect(
      isValidSigV4Signature(sent[0] as SentRequest, { ...TEST_CREDENTIALS, secretAccessKey: 'other' }),
    ).toBe(false);
  });

  it('does not sign requests to the local runtime', async () => {
    // Prepare
    const sent: SentRequest[] = [];
    const io = createTestIo({ fetch: recordingFetch(sent), awsCredentials: async () => TEST_CREDENTIALS });

    // Act
    await runCli(['start', '--spot', SPOT_ID, '--last', 'P1D'], io);

    // Assess
    expect(sent[0]?.url).toBe('http://127.0.0.1:3000/exports');
    expect(sent[0]?.headers.authorization).toBeUndefined();
    expect(sent[0]?.headers['x-amz-date']).toBeUndefined();
  });

  it('signs any host with --sigv4, for the region of --region', async () => {
    // Prepare
    const sent: SentRequest[] = [];
    const io = createTestIo({ fetch: recordingFetch(sent), awsCredentials: async () => TEST_CREDENTIALS });

    // Act
    await runCli(
      [
        'start',
        '--api',
        'https://exports.example.test',
        '--sigv4',
        '--region',
        'us-east-2',
        '--spot',
        SPOT_ID,
        '--last',
        'P1D',
      ],
      io,
    );

    // Assess
    expect(sent[0]?.headers.authorization).toContain('/us-east-2/execute-api/aws4_request');
  });

  it('takes the region from AWS_REGION when neither the host nor --region names one', async () => {
    // Prepare
    const sent: SentRequest[] = [];
    const io = createTestIo({
      fetch: recordingFetch(sent),
      env: { AWS_REGION: 'ap-southeast-2' },
      awsCredentials: async () => TEST_CREDENTIALS,
    });

    // Act
    await runCli(
      ['start', '--api', 'https://exports.example.test', '--sigv4', '--spot', SPOT_ID, '--last', 'P1D'],
      io,
    );

    // Assess
    expect(sent[0]?.headers.authorization).toContain('/ap-southeast-2/execute-api/aws4_request');
  });

  it('exits 2 without sending anything when no credentials can be found', async () => {
    // Prepare
    const sent: SentRequest[] = [];
    const io = createTestIo({
      fetch: recordingFetch(sent),
      awsCredentials: async () => {
        throw new Error('Could not load credentials from any providers');
      },
    });

    // Act
    const code = await runCli(['status', EXPORT_ID, '--api', EXECUTE_API_URL, '--spot', SPOT_ID], io);

    // Assess
    expect(code).toBe(ExitCode.USAGE);
    expect(sent).toHaveLength(0);
    expect(io.stderrText()).toContain('no AWS credentials to sign the request with');
  });
});

describe('createSigV4RequestSigner', () => {
  it('signs the query and a stage path, and adds the session token of temporary credentials', async () => {
    // Prepare
    const sign = createSigV4RequestSigner({
      region: 'eu-west-1',
      credentials: async () => ({ ...TEST_CREDENTIALS, sessionToken: 'session-token' }),
      now: () => Date.parse(SIGNING_TIME),
    });
    const request = {
      method: 'GET' as const,
      url: new URL(`${EXECUTE_API_URL}/prod/exports?limit=5&status=COMPLETED`),
      headers: { 'x-spot-id': SPOT_ID },
    };

    // Act
    const headers = await sign(request);
    const otherQuery = await sign({
      ...request,
      url: new URL(`${EXECUTE_API_URL}/prod/exports?limit=6&status=COMPLETED`),
    });

    // Assess
    expect(headers['x-amz-security-token']).toBe('session-token');
    expect(headers['x-spot-id']).toBe(SPOT_ID);
    expect(headers.authorization).not.toBe(otherQuery.authorization);
  });
});
