import { ArchiveUserEraser } from '../../archive/ArchiveUserEraser';
import { S3ArchiveObjects } from '../../s3/S3ArchiveObjects';
import { DynamoDbArchiveRecords } from '../../store/DynamoDbArchiveRecords';
import type { AdapterFactory } from '../buildDependencies';
import { archiveS3Client } from './archiveS3Client';
import { requiredResource } from './requiredResource';

/** The archive's side of an erasure on the bucket: its objects read, rewritten and their old versions deleted. */
export const archiveUserEraserFactory: AdapterFactory<'eraser'> = (context) =>
  new ArchiveUserEraser({
    objects: new S3ArchiveObjects({
      client: archiveS3Client(context),
      bucketName: requiredResource(context.config.archive.bucketName, 'ARCHIVE_BUCKET_NAME'),
    }),
    writer: context.adapter('archiveWriter'),
    revisions: new DynamoDbArchiveRecords({
      client: context.documentClient(),
      tableName: requiredResource(context.config.resources.tableName, 'TABLE_NAME'),
    }),
  });
