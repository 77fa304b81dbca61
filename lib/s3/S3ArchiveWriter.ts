import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ArchiveWriter, StoredObjectInfo } from '../archive/ports';

export interface S3ArchiveWriterOptions {
  client: S3Client;
  bucketName: string;
  /** Bytes per part of a multipart upload (S3's minimum is 5 MiB); memory use is about parts in flight × this. */
  partSizeBytes?: number;
  /** Parts uploaded at once. */
  queueSize?: number;
}

const MIB = 1024 * 1024;
/**
 * S3's smallest part: an archive run uploads a raw file and its Parquet file at once, each holding
 * a few parts in memory (docs/archive.md). A 100 MB file takes 20 parts.
 */
export const DEFAULT_UPLOAD_PART_BYTES = 5 * MIB;
export const DEFAULT_UPLOAD_QUEUE_SIZE = 2;

/** Archived files into an S3 bucket, as streamed multipart uploads. */
export class S3ArchiveWriter implements ArchiveWriter {
  readonly #client: S3Client;
  readonly #bucketName: string;
  readonly #partSizeBytes: number;
  readonly #queueSize: number;

  constructor(options: S3ArchiveWriterOptions) {
    this.#client = options.client;
    this.#bucketName = options.bucketName;
    this.#partSizeBytes = options.partSizeBytes ?? DEFAULT_UPLOAD_PART_BYTES;
    this.#queueSize = options.queueSize ?? DEFAULT_UPLOAD_QUEUE_SIZE;
  }

  async put(key: string, body: Readable, info: StoredObjectInfo): Promise<void> {
    const upload = new Upload({
      client: this.#client,
      params: {
        Bucket: this.#bucketName,
        Key: key,
        Body: body,
        ContentType: info.contentType,
        // No Content-Encoding: clients then keep the .csv.gz as stored, and its SHA-256 matches the record.
        ContentDisposition: `attachment; filename="${key.slice(key.lastIndexOf('/') + 1)}"`,
      },
      partSize: this.#partSizeBytes,
      queueSize: this.#queueSize,
      // A failed multipart upload is aborted, so no orphaned parts are billed.
      leavePartsOnError: false,
    });
    await upload.done();
  }
}
