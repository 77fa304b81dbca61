import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { S3StoredPartitions } from '../../../../lib/s3/S3StoredPartitions';

const BUCKET = 'openweb-exports-archive-1a2b3c';

describe('S3StoredPartitions', () => {
  const client = new S3Client({ region: 'eu-west-1' });
  const s3 = mockClient(client);
  const stored = new S3StoredPartitions({ client, bucketName: BUCKET });

  beforeEach(() => {
    s3.reset();
  });

  it("lists the spots under the table's prefix with a delimiter, page by page, leaving out other prefixes", async () => {
    // Prepare
    s3.on(ListObjectsV2Command)
      .resolvesOnce({
        CommonPrefixes: [{ Prefix: 'tables/comments/spot=sp_demo/' }, { Prefix: 'tables/comments/tmp/' }],
        IsTruncated: true,
        NextContinuationToken: 'next',
      })
      .resolvesOnce({ CommonPrefixes: [{ Prefix: 'tables/comments/spot=sp_other/' }], IsTruncated: false });

    // Act
    const spots = await stored.spots();

    // Assess
    expect(spots).toEqual(['sp_demo', 'sp_other']);
    expect(s3).toHaveReceivedNthCommandWith(ListObjectsV2Command, 1, {
      Bucket: BUCKET,
      Prefix: 'tables/comments/',
      Delimiter: '/',
    });
    expect(s3).toHaveReceivedNthCommandWith(ListObjectsV2Command, 2, { ContinuationToken: 'next' });
  });

  it("lists a spot's days, keeping only `date=YYYY-MM-DD/` prefixes", async () => {
    // Prepare
    s3.on(ListObjectsV2Command).resolves({
      CommonPrefixes: [
        { Prefix: 'tables/comments/spot=sp_demo/date=2026-11-24/' },
        { Prefix: 'tables/comments/spot=sp_demo/date=2026-11-25/' },
        { Prefix: 'tables/comments/spot=sp_demo/date=latest/' },
      ],
    });

    // Act
    const dates = await stored.dates('sp_demo');

    // Assess
    expect(dates).toEqual(['2026-11-24', '2026-11-25']);
    expect(s3).toHaveReceivedCommandWith(ListObjectsV2Command, {
      Prefix: 'tables/comments/spot=sp_demo/',
      Delimiter: '/',
    });
  });

  it('answers none for an empty bucket', async () => {
    // Prepare
    s3.on(ListObjectsV2Command).resolves({ KeyCount: 0 });

    // Act & Assess
    expect(await stored.spots()).toEqual([]);
    expect(await stored.dates('sp_demo')).toEqual([]);
  });
});
