import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ArchiveReader } from '../archive/ports';

export interface S3ArchiveReaderOptions {
  client: S3Client;
  bucketName: string;
}

/** The archive in an S3 bucket, read: the manifest's bytes and presigned GETs of the files. */
export class S3ArchiveReader implements ArchiveReader {
  readonly #client: S3Client;
  readonly #bucketName: string;

  constructor(options: S3ArchiveReaderOptions) {
    this.#client = options.client;
    this.#bucketName = options.bucketName;
  }

  async read(key: string): Promise<Uint8Array> {
    const { Body } = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucketName, Key: key }));
    if (Body === undefined) throw new Error(`S3 answered no body for ${key}`);
    return Body.transformToByteArray();
  }

  async downloadUrl(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.#client, new GetObjectCommand({ Bucket: this.#bucketName, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }
}
