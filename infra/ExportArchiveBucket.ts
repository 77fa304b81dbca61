import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ARCHIVE_KEY_PREFIX, TABLES_KEY_PREFIX } from '../lib/archive/archiveKeys';
import { requireKeyInStackRegion } from './kmsKeyRegion';
import type { ArchiveStackConfig } from './stackConfig';

/** Incomplete multipart uploads (an archive task that died mid-file) are cleaned up after this. */
const ABORT_INCOMPLETE_UPLOADS_AFTER_DAYS = 1;

export interface ExportArchiveBucketProps {
  config: ArchiveStackConfig;
}

/**
 * The archive of exported files: private (public access blocked, TLS only), encrypted at rest
 * (S3-managed keys, or the configured KMS key), versioned, kept when the stack is deleted, with
 * lifecycle rules from the configuration.
 */
export class ExportArchiveBucket extends Construct {
  readonly bucket: s3.Bucket;
  readonly encryptionKey: kms.IKey | undefined;

  constructor(scope: Construct, id: string, props: ExportArchiveBucketProps) {
    super(scope, id);
    const { config } = props;
    if (config.kmsKeyArn !== undefined) {
      requireKeyInStackRegion(this, 'KeyInStackRegion', config.kmsKeyArn, 'archive.kmsKeyArn');
    }
    this.encryptionKey =
      config.kmsKeyArn === undefined ? undefined : kms.Key.fromKeyArn(this, 'Key', config.kmsKeyArn);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      ...(this.encryptionKey === undefined
        ? { encryption: s3.BucketEncryption.S3_MANAGED }
        : { encryption: s3.BucketEncryption.KMS, encryptionKey: this.encryptionKey, bucketKeyEnabled: true }),
      versioned: true,
      // The data outlives the stack: deleting the stack must never delete exports.
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        {
          id: 'ArchivedExports',
          prefix: ARCHIVE_KEY_PREFIX,
          abortIncompleteMultipartUploadAfter: Duration.days(ABORT_INCOMPLETE_UPLOADS_AFTER_DAYS),
          noncurrentVersionExpiration: Duration.days(config.noncurrentVersionExpireAfterDays),
          ...(config.infrequentAccessAfterDays !== null && {
            transitions: [
              {
                storageClass: s3.StorageClass.INFREQUENT_ACCESS,
                transitionAfter: Duration.days(config.infrequentAccessAfterDays),
              },
            ],
          }),
          ...(config.expireAfterDays !== undefined && { expiration: Duration.days(config.expireAfterDays) }),
        },
        {
          // The Parquet copies follow the raw files' retention but stay in Standard: they are what
          // queries read, and Standard-IA bills every byte read.
          id: 'ArchivedTables',
          prefix: TABLES_KEY_PREFIX,
          abortIncompleteMultipartUploadAfter: Duration.days(ABORT_INCOMPLETE_UPLOADS_AFTER_DAYS),
          noncurrentVersionExpiration: Duration.days(config.noncurrentVersionExpireAfterDays),
          ...(config.expireAfterDays !== undefined && { expiration: Duration.days(config.expireAfterDays) }),
        },
      ],
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Objects are written by the archive function and read through presigned URLs the files function mints; both are logged with the export id. Server access logs would need a second bucket per deployment.',
    });
  }
}
