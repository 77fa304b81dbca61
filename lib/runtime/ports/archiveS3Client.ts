import { S3Client } from '@aws-sdk/client-s3';
import { AWS_CONNECTION_TIMEOUT_MS } from '../AwsClients';

/** The archive bucket's client. Uploads stream for minutes: only connecting is bounded. */
export function archiveS3Client(): S3Client {
  return new S3Client({ requestHandler: { connectionTimeout: AWS_CONNECTION_TIMEOUT_MS } });
}
