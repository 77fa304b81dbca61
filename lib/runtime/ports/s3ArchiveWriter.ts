import type { S3Client } from '@aws-sdk/client-s3';
import { S3ArchiveWriter } from '../../s3/S3ArchiveWriter';
import { archiveS3Client } from './archiveS3Client';

/** The archive bucket, written by archive runs. */
export function s3ArchiveWriter(bucketName: string, client?: S3Client): S3ArchiveWriter {
  return new S3ArchiveWriter({ client: client ?? archiveS3Client(), bucketName });
}
