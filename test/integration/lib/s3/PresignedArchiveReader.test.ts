import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchivedObjectMissingError, ArchiveReadError } from '../../../../lib/archive/errors';
import { PresignedArchiveReader } from '../../../../lib/s3/PresignedArchiveReader';
import { type LocalS3, startLocalS3 } from '../../../../local/localS3';

/** Keys as the archive writes them, and the characters S3 keys may hold that URLs must escape. */
const KEYS = [
  'exports/spot=sp_demo/date=2026-11-24/ex_01kaxyz/1.csv.gz',
  'exports/spot=sp_demo/date=2026-11-24/ex_01kaxyz/manifest.json',
  "odd/a b+c&d'(e)*!~/ü € 日本/x%41.txt",
];

/** The reader `/files` uses, against the S3 stand-in, which checks every signature. */
describe('the presigned archive reader', () => {
  let s3: LocalS3;

  beforeAll(async () => {
    s3 = await startLocalS3();
    for (const [n, key] of KEYS.entries()) {
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucketName, Key: key, Body: `object ${n}` }));
    }
  });

  afterAll(async () => {
    await s3.close();
  });

  it('hands out URLs that fetch each object with no credentials, whatever its key holds', async () => {
    // Prepare
    const reader = s3.archiveReader();

    // Act
    const bodies = await Promise.all(
      KEYS.map(async (key) => (await fetch(await reader.downloadUrl(key, 900))).text()),
    );

    // Assess
    expect(bodies).toEqual(KEYS.map((_, n) => `object ${n}`));
  });

  it('signs for the expiry asked, the key escaped as the S3 client escapes it', async () => {
    // Act
    const urls = await Promise.all(
      KEYS.map(async (key) => ({
        ours: new URL(await s3.archiveReader().downloadUrl(key, 321)),
        client: new URL(
          await getSignedUrl(s3.client, new GetObjectCommand({ Bucket: s3.bucketName, Key: key }), {
            expiresIn: 321,
          }),
        ),
      })),
    );

    // Assess
    for (const { ours, client } of urls) {
      expect(ours.searchParams.get('X-Amz-Expires')).toBe('321');
      expect(ours.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(ours.host).toBe(client.host);
      expect(ours.pathname).toBe(client.pathname);
    }
  });

  it('reads an object’s bytes', async () => {
    // Act
    const bytes = await s3.archiveReader().read(KEYS[2] as string);

    // Assess
    expect(Buffer.from(bytes).toString('utf8')).toBe('object 2');
  });

  it('says an object is missing when the bucket has no such key', async () => {
    // Act
    const read = s3.archiveReader().read('exports/none/manifest.json');

    // Assess
    await expect(read).rejects.toBeInstanceOf(ArchivedObjectMissingError);
  });

  it('names the refusal when the signature is not the bucket’s', async () => {
    // Prepare
    const reader = new PresignedArchiveReader({
      bucketUrl: new URL(`/${s3.bucketName}`, s3.endpoint).href,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'not-the-secret' },
      requestTimeoutMs: 1000,
    });

    // Act
    const read = reader.read(KEYS[0] as string);

    // Assess
    await expect(read).rejects.toThrow(ArchiveReadError);
    await expect(read).rejects.toThrow(/S3 answered 403 SignatureDoesNotMatch/);
  });
});
