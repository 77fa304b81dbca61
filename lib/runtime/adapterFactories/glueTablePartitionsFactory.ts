import { GlueClient } from '@aws-sdk/client-glue';
import { GlueTablePartitions } from '../../glue/GlueTablePartitions';
import { AWS_REQUEST_HANDLER } from '../AwsClients';
import type { AdapterFactory } from '../buildDependencies';
import { requiredResource } from './requiredResource';

/**
 * The comment rows table's partitions, registered in the deployment's Glue catalog
 * (`LAKE_DATABASE_NAME`, set by the stack). The client is built on the first registration.
 * (Locally nothing is registered: the query engine reads partitions from the keys.)
 */
export const glueTablePartitionsFactory: AdapterFactory<'partitions'> = ({ config, clients }) => {
  const databaseName = config.archive.lakeDatabaseName;
  const bucketName = requiredResource(config.archive.bucketName, 'ARCHIVE_BUCKET_NAME');
  let partitions: GlueTablePartitions | undefined;
  return {
    register: (spotId, date) => {
      partitions ??= new GlueTablePartitions({
        client: clients.glue ?? new GlueClient({ requestHandler: AWS_REQUEST_HANDLER }),
        databaseName,
        bucketName,
      });
      return partitions.register(spotId, date);
    },
  };
};
