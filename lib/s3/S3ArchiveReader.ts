import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ArchivedObjectMissingError } from '../archive/errors';
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

  /** @throws ArchivedObjectMissingError when the bucket has no such object */
  async read(key: string): Promise<Uint8Array> {
    let object: GetObjectCommandOutput;
    try {
      object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucketName, Key: key }));
    } catch (error) {
      // S3 says NoSuchKey only to a caller that may list the bucket; otherwise AccessDenied.
      if (error instanceof Error && error.name === 'NoSuchKey') {
        throw new ArchivedObjectMissingError(key, { cause: error });
      }
      throw error;
    }
    if (object.Body === undefined) throw new Error(`S3 answered no body for ${key}`);
    return object.Body.transformToByteArray();
  }

  async downloadUrl(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.#client, new GetObjectCommand({ Bucket: this.#bucketName, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }
}
