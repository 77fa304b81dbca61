import { ArnFormat, Aws, Stack, Validations } from 'aws-cdk-lib';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { FunctionAccess, WorkflowAction } from '../functions/registry';
import { ARCHIVE_KEY_PREFIX, TABLES_KEY_PREFIX } from '../lib/archive/archiveKeys';
import type { ExportArchiveBucket } from './ExportArchiveBucket';
import type { ExportFunction } from './ExportFunction';
import type { ExportsLake } from './ExportsLake';
import type { ExportTable } from './ExportTable';
import { requireKeyInStackRegion } from './kmsKeyRegion';
import { iamWildcardResourceFindingId } from './nagFindingIds';
import type { StackConfig } from './stackConfig';

export interface FunctionGrantsProps {
  config: StackConfig;
  table: ExportTable;
  eventBus: events.IEventBus;
  stateMachineArn: string;
  /** `arn:...:execution:<state machine name>:*` */
  executionsArn: string;
  erasureStateMachineArn: string;
  archive: ExportArchiveBucket;
  lake: ExportsLake;
}

const WORKFLOW_ACTIONS: Record<WorkflowAction, string> = {
  start: 'states:StartExecution',
  describe: 'states:DescribeExecution',
  stop: 'states:StopExecution',
};

/** A function's access (functions/registry.ts) as IAM statements on the stack's resources, each wildcard acknowledged with its reason. */
export class FunctionGrants {
  readonly #scope: Construct;
  readonly #props: FunctionGrantsProps;
  readonly #secretsArn: string;
  readonly #archiveObjects: string;
  readonly #tableObjects: string;

  constructor(scope: Construct, props: FunctionGrantsProps) {
    this.#scope = scope;
    this.#props = props;
    this.#secretsArn = Stack.of(scope).formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${props.config.secretNamePrefix}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    if (props.config.secretsKmsKeyArn !== undefined)
      requireKeyInStackRegion(
        scope,
        'SecretsKeyInStackRegion',
        props.config.secretsKmsKeyArn,
        'secretsKmsKeyArn',
      );
    this.#archiveObjects = props.archive.bucket.arnForObjects(`${ARCHIVE_KEY_PREFIX}*`);
    this.#tableObjects = props.archive.bucket.arnForObjects(`${TABLES_KEY_PREFIX}*`);
  }

  grant(fn: ExportFunction, access: FunctionAccess): void {
    this.#grantTable(fn, access);
    if (access.spotSecrets) this.#grantSpotSecrets(fn);
    if (access.workflow !== undefined) this.#grantWorkflow(fn, access.workflow);
    if (access.erasureWorkflow?.includes('start'))
      fn.addToPolicy(
        new iam.PolicyStatement({
          actions: [WORKFLOW_ACTIONS.start],
          resources: [this.#props.erasureStateMachineArn],
        }),
      );
    if (access.events)
      fn.addToPolicy(
        new iam.PolicyStatement({
          actions: ['events:PutEvents'],
          resources: [this.#props.eventBus.eventBusArn],
        }),
      );
    if (access.archive === 'write') this.#grantArchiveWrite(fn);
    if (access.archive === 'read') this.#grantArchiveRead(fn);
    if (access.archive === 'erase') this.#grantArchiveErase(fn);
    if (access.catalog) this.#props.lake.grantPartitionRegistration(fn.role);
    if (access.tableQuery) this.#props.lake.grantUserRowsCount(fn.role);
  }

  #grantTable(fn: ExportFunction, access: FunctionAccess): void {
    const { table } = this.#props;
    const itemActions = access.table.filter((action) => action !== 'Query');
    if (itemActions.length > 0)
      fn.addToPolicy(
        new iam.PolicyStatement({
          actions: itemActions.map((action) => `dynamodb:${action}`),
          resources: [table.table.tableArn],
        }),
      );
    if (access.table.includes('Query'))
      fn.addToPolicy(
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [table.table.tableArn, ...(access.indexes ?? []).map((index) => table.indexArn(index))],
        }),
      );
  }

  #grantSpotSecrets(fn: ExportFunction): void {
    fn.addToPolicy(
      new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.#secretsArn] }),
    );
    const key = this.#props.config.secretsKmsKeyArn;
    if (key !== undefined) {
      // Secrets Manager decrypts a secret with the caller's permission on its key: only through
      // Secrets Manager, never a direct Decrypt.
      fn.addToPolicy(
        new iam.PolicyStatement({
          actions: ['kms:Decrypt'],
          resources: [key],
          conditions: {
            StringEquals: {
              'kms:ViaService': `secretsmanager.${Stack.of(this.#scope).region}.${Aws.URL_SUFFIX}`,
            },
          },
        }),
      );
    }
    Validations.of(fn.role).acknowledge({
      id: iamWildcardResourceFindingId(this.#scope, this.#secretsArn),
      reason:
        'Secret ARNs end in a random suffix, so the grant names the configured prefix: one secret per spot, <prefix><spotId>.',
    });
  }

  #grantWorkflow(fn: ExportFunction, actions: readonly WorkflowAction[]): void {
    for (const action of actions) {
      fn.addToPolicy(
        new iam.PolicyStatement({
          actions: [WORKFLOW_ACTIONS[action]],
          resources: [action === 'start' ? this.#props.stateMachineArn : this.#props.executionsArn],
        }),
      );
    }
    if (actions.some((action) => action !== 'start'))
      Validations.of(fn.role).acknowledge({
        id: iamWildcardResourceFindingId(this.#scope, this.#props.executionsArn),
        reason:
          'Execution names are derived from export ids at run time; the grant is limited to executions of the polling state machine.',
      });
  }

  /**
   * The raw files under their prefix and their Parquet copies under the tables' prefix, nothing
   * else (the multipart calls are covered by PutObject).
   */
  #grantArchiveWrite(fn: ExportFunction): void {
    fn.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: [this.#archiveObjects, this.#tableObjects],
      }),
    );
    // Exact actions, no `GenerateDataKey*`: S3 asks for a data key to write (and to decrypt the
    // parts of a multipart upload when completing it).
    this.#grantArchiveKey(fn, ['kms:GenerateDataKey', 'kms:Decrypt']);
    this.#acknowledgeArchiveObjects(fn);
    Validations.of(fn.role).acknowledge({
      id: iamWildcardResourceFindingId(this.#scope, this.#tableObjects),
      reason:
        'Table files (Parquet) are keyed by spot, day and export at run time; the grant is limited to the tables prefix of this bucket.',
    });
  }

  /** The raw files only, to presign GETs: nothing written. */
  #grantArchiveRead(fn: ExportFunction): void {
    fn.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [this.#archiveObjects] }),
      // Never sent: with it S3 answers a read (and a URL it signed) of a missing object 404 NoSuchKey
      // instead of 403, so an archive whose files are gone is told from a refused read.
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [this.#props.archive.bucket.bucketArn],
      }),
    );
    this.#grantArchiveKey(fn, ['kms:Decrypt']);
    this.#acknowledgeArchiveObjects(fn);
  }

  /**
   * An erasure reads every archived CSV file and its manifest, writes them (and their Parquet files) again without the user,
   * and deletes every version of the old objects: under the archive's two prefixes only. Listing
   * versions is a bucket action, limited to those prefixes by condition.
   */
  #grantArchiveErase(fn: ExportFunction): void {
    // The CSV files and the manifests are read; the Parquet files are written again from the CSV.
    fn.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [this.#archiveObjects] }));
    fn.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObjectVersion'],
        resources: [this.#archiveObjects, this.#tableObjects],
      }),
    );
    fn.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucketVersions'],
        resources: [this.#props.archive.bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${ARCHIVE_KEY_PREFIX}*`, `${TABLES_KEY_PREFIX}*`] } },
      }),
    );
    this.#grantArchiveKey(fn, ['kms:GenerateDataKey', 'kms:Decrypt']);
    this.#acknowledgeArchiveObjects(fn);
    Validations.of(fn.role).acknowledge({
      id: iamWildcardResourceFindingId(this.#scope, this.#tableObjects),
      reason:
        'Table files (Parquet) are keyed by spot, day and export at run time; the grant is limited to the tables prefix of this bucket.',
    });
  }

  #grantArchiveKey(fn: ExportFunction, actions: string[]): void {
    const key = this.#props.archive.encryptionKey;
    if (key !== undefined) fn.addToPolicy(new iam.PolicyStatement({ actions, resources: [key.keyArn] }));
  }

  #acknowledgeArchiveObjects(fn: ExportFunction): void {
    Validations.of(fn.role).acknowledge({
      id: iamWildcardResourceFindingId(this.#scope, this.#archiveObjects),
      reason:
        'Archived objects are keyed by spot, day and export at run time; the grant is limited to the archive prefix of this bucket.',
    });
  }
}
