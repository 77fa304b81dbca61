import { S3ArchiveWriter } from '../../s3/S3ArchiveWriter';
import type { AdapterFactory } from '../buildDependencies';
import { archiveS3Client } from './archiveS3Client';
import { requiredResource } from './requiredResource';

/** The archive bucket, written by archive runs. */
export const s3ArchiveWriterFactory: AdapterFactory<'archiveWriter'> = (context) =>
  new S3ArchiveWriter({
    client: archiveS3Client(context),
    bucketName: requiredResource(context.config.archive.bucketName, 'ARCHIVE_BUCKET_NAME'),
  });
