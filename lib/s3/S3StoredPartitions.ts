import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { StoredPartitions } from '../archive/ports';
import { COMMENT_ROWS_KEY_PREFIX } from '../lake/commentRowsTable';
import { SPOT_ID_PATTERN } from '../settings/spotId';

export interface S3StoredPartitionsOptions {
  client: S3Client;
  bucketName: string;
}

/** A partition's day, as the archive names it in the key. */
const PARTITION_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The comment rows table's partitions as the archive stored them in the bucket: one key prefix
 * per spot (`tables/comments/spot=<spotId>/`) and per day under it (`date=<YYYY-MM-DD>/`), read
 * with ListObjectsV2 and a `/` delimiter, so one call lists up to 1,000 of them whatever the
 * number of files. A prefix of another shape is not a partition the archive wrote, and is left out.
 */
export class S3StoredPartitions implements StoredPartitions {
  readonly #client: S3Client;
  readonly #bucketName: string;

  constructor(options: S3StoredPartitionsOptions) {
    this.#client = options.client;
    this.#bucketName = options.bucketName;
  }

  async spots(): Promise<string[]> {
    const spots = await this.#valuesUnder(COMMENT_ROWS_KEY_PREFIX, 'spot');
    return spots.filter((spotId) => SPOT_ID_PATTERN.test(spotId));
  }

  async dates(spotId: string): Promise<string[]> {
    const dates = await this.#valuesUnder(`${COMMENT_ROWS_KEY_PREFIX}spot=${spotId}/`, 'date');
    return dates.filter((date) => PARTITION_DATE_PATTERN.test(date));
  }

  /** The values of `<key>=<value>/` prefixes directly under `prefix`. */
  async #valuesUnder(prefix: string, key: string): Promise<string[]> {
    const values: string[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({
          Bucket: this.#bucketName,
          Prefix: prefix,
          Delimiter: '/',
          ...(continuationToken !== undefined && { ContinuationToken: continuationToken }),
        }),
      );
      for (const { Prefix } of page.CommonPrefixes ?? []) {
        const name = Prefix?.slice(prefix.length, -1) ?? '';
        if (name.startsWith(`${key}=`)) values.push(name.slice(key.length + 1));
      }
      continuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
    return values;
  }
}
