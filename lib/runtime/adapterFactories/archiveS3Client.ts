import { S3Client } from '@aws-sdk/client-s3';
import { AWS_CONNECTION_TIMEOUT_MS } from '../AwsClients';
import type { AdapterContext } from '../buildDependencies';

/** The archive bucket's client. Uploads stream for minutes: only connecting is bounded. */
export function archiveS3Client({ clients }: AdapterContext): S3Client {
  return clients.s3 ?? new S3Client({ requestHandler: { connectionTimeout: AWS_CONNECTION_TIMEOUT_MS } });
}
