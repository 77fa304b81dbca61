import type { S3Client } from '@aws-sdk/client-s3';
import { S3ArchiveReader } from '../../s3/S3ArchiveReader';
import { archiveS3Client } from './archiveS3Client';

/** The archive bucket, read by `/files`. */
export function s3ArchiveReader(bucketName: string, client?: S3Client): S3ArchiveReader {
  return new S3ArchiveReader({ client: client ?? archiveS3Client(), bucketName });
}
