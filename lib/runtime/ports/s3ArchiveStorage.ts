import { S3Client } from '@aws-sdk/client-s3';
import { S3ArchiveStorage } from '../../s3/S3ArchiveStorage';
import { AWS_CONNECTION_TIMEOUT_MS } from '../AwsClients';

/** The archive bucket. Uploads stream for minutes: only connecting is bounded. */
export function s3ArchiveStorage(bucketName: string, client?: S3Client): S3ArchiveStorage {
  return new S3ArchiveStorage({
    client: client ?? new S3Client({ requestHandler: { connectionTimeout: AWS_CONNECTION_TIMEOUT_MS } }),
    bucketName,
  });
}
