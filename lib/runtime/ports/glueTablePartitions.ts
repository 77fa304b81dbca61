import { GlueClient } from '@aws-sdk/client-glue';
import { PATH_TABLE_PARTITIONS } from '../../archive/pathTablePartitions';
import type { TablePartitions } from '../../archive/ports';
import type { Config } from '../../config';
import { GlueTablePartitions } from '../../glue/GlueTablePartitions';
import { AWS_REQUEST_HANDLER } from '../AwsClients';

/**
 * The comment rows table's partitions: registered in Glue when the deployment has a catalog
 * (`LAKE_DATABASE_NAME`, set by the stack), nothing to register otherwise (the local runtime,
 * whose query engine reads partitions from the keys). The client is built on the first call.
 */
export function glueTablePartitions(config: Config, client?: GlueClient): TablePartitions {
  const { lakeDatabaseName, bucketName } = config.archive;
  if (lakeDatabaseName === undefined || bucketName === undefined) return PATH_TABLE_PARTITIONS;
  let partitions: GlueTablePartitions | undefined;
  return {
    register: (spotId, date) => {
      partitions ??= new GlueTablePartitions({
        client: client ?? new GlueClient({ requestHandler: AWS_REQUEST_HANDLER }),
        databaseName: lakeDatabaseName,
        bucketName,
      });
      return partitions.register(spotId, date);
    },
  };
}
