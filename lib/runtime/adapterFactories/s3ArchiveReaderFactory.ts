import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { PresignedArchiveReader } from '../../s3/PresignedArchiveReader';
import { AWS_REQUEST_TIMEOUT_MS } from '../AwsClients';
import type { AdapterFactory } from '../buildDependencies';
import { requiredResource } from './requiredResource';

/**
 * The archive bucket, read by `/files`: presigned with the function's own credentials, for the
 * bucket URL and region the stack sets.
 */
export const s3ArchiveReaderFactory: AdapterFactory<'archiveReader'> = ({ config }) =>
  new PresignedArchiveReader({
    bucketUrl: requiredResource(config.archive.bucketUrl, 'ARCHIVE_BUCKET_URL'),
    region: requiredResource(process.env.AWS_REGION, 'AWS_REGION'),
    credentials: fromNodeProviderChain(),
    requestTimeoutMs: AWS_REQUEST_TIMEOUT_MS,
  });
