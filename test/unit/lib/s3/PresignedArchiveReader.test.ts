import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { ArchiveReadError } from '../../../../lib/archive/errors';
import { PresignedArchiveReader } from '../../../../lib/s3/PresignedArchiveReader';

const BUCKET = 'openweb-exports-archive-1a2b3c';
const REGION = 'eu-west-1';
const CREDENTIALS = { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' };
const KEY = 'exports/spot=sp_demo/date=2026-11-24/ex_01kaxyz/manifest.json';

/** A fetch that answers from a script, one entry per call, and counts the calls. */
function scriptedFetch(script: (Response | Error)[]): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: async (input) => {
      calls.push(String(input));
      const next = script.shift();
      if (next === undefined) throw new Error('no more answers scripted');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

function readerWith(fetch: typeof globalThis.fetch): PresignedArchiveReader {
  return new PresignedArchiveReader({
    bucketUrl: `https://${BUCKET}.s3.${REGION}.amazonaws.com`,
    region: REGION,
    credentials: CREDENTIALS,
    fetch,
    requestTimeoutMs: 1000,
  });
}

const s3Error = (status: number, code: string) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`, { status });

describe('PresignedArchiveReader', () => {
  it('signs the virtual-hosted URL the S3 client would, with the role’s session token', async () => {
    // Prepare
    const client = new S3Client({ region: REGION, credentials: CREDENTIALS });

    // Act
    const ours = new URL(await readerWith(fetch).downloadUrl(KEY, 900));
    const theClients = new URL(
      await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: KEY }), { expiresIn: 900 }),
    );

    // Assess
    expect(ours.origin).toBe(theClients.origin);
    expect(ours.pathname).toBe(theClients.pathname);
    expect(ours.searchParams.get('X-Amz-Credential')).toBe(theClients.searchParams.get('X-Amz-Credential'));
    expect(ours.searchParams.get('X-Amz-Security-Token')).toBe('token');
    expect(ours.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  });

  it('reads again after a 503, and returns the bytes', async () => {
    // Prepare
    const { fetch, calls } = scriptedFetch([s3Error(503, 'SlowDown'), new Response('{"files":[]}')]);

    // Act
    const bytes = await readerWith(fetch).read(KEY);

    // Assess
    expect(Buffer.from(bytes).toString('utf8')).toBe('{"files":[]}');
    expect(calls).toHaveLength(2);
  });

  it('gives up after three failed connections, naming the cause', async () => {
    // Prepare
    const { fetch, calls } = scriptedFetch([1, 2, 3].map(() => new TypeError('fetch failed')));

    // Act
    const read = readerWith(fetch).read(KEY);

    // Assess
    await expect(read).rejects.toThrow(ArchiveReadError);
    await expect(read).rejects.toThrow(/could not be reached: fetch failed/);
    expect(calls).toHaveLength(3);
  });

  it('does not retry a refusal', async () => {
    // Prepare
    const { fetch, calls } = scriptedFetch([s3Error(403, 'AccessDenied')]);

    // Act
    const read = readerWith(fetch).read(KEY);

    // Assess
    await expect(read).rejects.toThrow(/S3 answered 403 AccessDenied/);
    expect(calls).toHaveLength(1);
  });
});
