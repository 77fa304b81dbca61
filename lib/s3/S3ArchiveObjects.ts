import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectVersionsCommand,
  NoSuchKey,
  type S3Client,
} from '@aws-sdk/client-s3';
import { ArchivedObjectMissingError } from '../archive/errors';
import type { ArchiveObjects, ObjectVersion } from '../archive/ports';

export interface S3ArchiveObjectsOptions {
  client: S3Client;
  bucketName: string;
}

/** The archive's objects and their versions in a versioned S3 bucket (or the local stand-in). */
export class S3ArchiveObjects implements ArchiveObjects {
  readonly #client: S3Client;
  readonly #bucketName: string;

  constructor(options: S3ArchiveObjectsOptions) {
    this.#client = options.client;
    this.#bucketName = options.bucketName;
  }

  async open(key: string): Promise<Readable> {
    try {
      const { Body } = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucketName, Key: key }));
      if (Body === undefined) throw new ArchivedObjectMissingError(key);
      return Body instanceof Readable ? Body : Readable.fromWeb(Body.transformToWebStream() as never);
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') {
        throw new ArchivedObjectMissingError(key, { cause: error });
      }
      throw error;
    }
  }

  async read(key: string): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async versionsOf(key: string): Promise<ObjectVersion[]> {
    const versions: ObjectVersion[] = [];
    let keyMarker: string | undefined;
    let versionIdMarker: string | undefined;
    for (;;) {
      const page = await this.#client.send(
        new ListObjectVersionsCommand({
          Bucket: this.#bucketName,
          Prefix: key,
          ...(keyMarker !== undefined && { KeyMarker: keyMarker }),
          ...(versionIdMarker !== undefined && { VersionIdMarker: versionIdMarker }),
        }),
      );
      for (const entry of [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]) {
        // The prefix also matches longer keys (`1.csv.gz` and `1.csv.gz.tmp`): this key only.
        if (entry.Key !== key || entry.VersionId === undefined) continue;
        versions.push({ versionId: entry.VersionId, isLatest: entry.IsLatest === true });
      }
      if (page.IsTruncated !== true) break;
      keyMarker = page.NextKeyMarker;
      versionIdMarker = page.NextVersionIdMarker;
    }
    return versions.sort((a, b) => Number(b.isLatest) - Number(a.isLatest));
  }

  async deleteVersion(key: string, versionId: string): Promise<void> {
    await this.#client.send(
      new DeleteObjectCommand({ Bucket: this.#bucketName, Key: key, VersionId: versionId }),
    );
  }
}
