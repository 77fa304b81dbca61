import { S3ArchiveReader } from '../../s3/S3ArchiveReader';
import type { AdapterFactory } from '../buildDependencies';
import { archiveS3Client } from './archiveS3Client';
import { requiredResource } from './requiredResource';

/** The archive bucket, read by `/files`. */
export const s3ArchiveReaderFactory: AdapterFactory<'archiveReader'> = (context) =>
  new S3ArchiveReader({
    client: archiveS3Client(context),
    bucketName: requiredResource(context.config.archive.bucketName, 'ARCHIVE_BUCKET_NAME'),
  });
