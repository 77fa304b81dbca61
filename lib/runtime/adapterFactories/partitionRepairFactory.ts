import { GlueClient } from '@aws-sdk/client-glue';
import { TablePartitionRepair } from '../../archive/TablePartitionRepair';
import { GlueTablePartitions } from '../../glue/GlueTablePartitions';
import { S3StoredPartitions } from '../../s3/S3StoredPartitions';
import { AWS_REQUEST_HANDLER } from '../AwsClients';
import type { AdapterFactory } from '../buildDependencies';
import { archiveS3Client } from './archiveS3Client';
import { requiredResource } from './requiredResource';

/**
 * The repair of the comment rows table's partitions: the archive bucket's `tables/comments/`
 * prefixes against the deployment's Glue catalog (`LAKE_DATABASE_NAME`). Built on its first run and
 * kept for the container's life, which checks each spot once. (Locally there is none: DuckDB
 * reads the partitions from the keys.)
 */
export const partitionRepairFactory: AdapterFactory<'partitionRepair'> = (context) => {
  const databaseName = context.config.archive.lakeDatabaseName;
  const bucketName = requiredResource(context.config.archive.bucketName, 'ARCHIVE_BUCKET_NAME');
  let repair: TablePartitionRepair | undefined;
  return {
    repair: (spotId) => {
      repair ??= new TablePartitionRepair({
        catalog: new GlueTablePartitions({
          client: context.clients.glue ?? new GlueClient({ requestHandler: AWS_REQUEST_HANDLER }),
          databaseName,
          bucketName,
        }),
        stored: new S3StoredPartitions({ client: archiveS3Client(context), bucketName }),
      });
      return repair.repair(spotId);
    },
  };
};
