import { ArnFormat, Aws, Stack, Validations } from 'aws-cdk-lib';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ARCHIVE_KEY_PREFIX, TABLES_KEY_PREFIX } from '../lib/archive/archiveKeys';
import { type HandlerName, HandlerNames } from '../lib/http/routeTable';
import { ExportTableIndex } from '../lib/store/tableDefinition';
import type { ExportArchiveBucket } from './ExportArchiveBucket';
import { ExportFunction } from './ExportFunction';
import type { ExportTable } from './ExportTable';
import { functionEnvironment } from './functionEnvironment';
import { requireKeyInStackRegion } from './kmsKeyRegion';
import { iamWildcardResourceFindingId } from './nagFindingIds';
import type { StackConfig } from './stackConfig';
import { ARCHIVE_FUNCTION_TIMEOUT_SECONDS, WORKFLOW_TASK_FUNCTION_TIMEOUT_SECONDS } from './workflowRetries';

/** API Gateway gives up on an integration after 30 s; the API-fronted functions finish well before. */
export const API_FUNCTION_TIMEOUT_SECONDS = 20;
/** One reconciler sweep repairs up to a batch of exports, each maybe polling or aborting upstream. */
export const RECONCILE_FUNCTION_TIMEOUT_SECONDS = 5 * 60;
export const API_FUNCTION_MEMORY_MB = 256;
/** The workflow's tasks and the reconciler: room for the upstream client and link sets of thousands. */
export const WORKFLOW_FUNCTION_MEMORY_MB = 512;
/** The archive task streams files of up to a few hundred MB: memory for the network and the writers. */
export const ARCHIVE_MEMORY_MB = 1024;
/** Each link's zip is kept in /tmp while its CSVs are stored. */
export const ARCHIVE_EPHEMERAL_STORAGE_MB = 4096;

export interface ExportFunctionsProps {
  config: StackConfig;
  table: ExportTable;
  eventBus: events.IEventBus;
  /** Built from the state machine's fixed name, not taken from the resource: the state machine invokes these functions. */
  stateMachineArn: string;
  /** `arn:...:execution:<state machine name>:*` */
  executionsArn: string;
  logRetention: logs.RetentionDays;
  archive: ExportArchiveBucket;
}

/** The handlers as Lambda functions, each with the environment it reads and only the grants it uses. */
export class ExportFunctions extends Construct {
  readonly start: ExportFunction;
  readonly checkStatus: ExportFunction;
  readonly abort: ExportFunction;
  readonly list: ExportFunction;
  readonly files: ExportFunction;
  readonly workflowTask: ExportFunction;
  readonly archive: ExportFunction;
  readonly reconcile: ExportFunction;
  readonly coverage: ExportFunction;
  readonly backfills: ExportFunction;

  constructor(scope: Construct, id: string, props: ExportFunctionsProps) {
    super(scope, id);
    const { config, table, eventBus } = props;
    // Configuration, not access: a function builds only the clients its code paths use
    // (lib/runtime/adapterFactories) and is granted only what those call.
    const environment = functionEnvironment('lifecycle', config, {
      TABLE_NAME: table.table.tableName,
      STATE_MACHINE_ARN: props.stateMachineArn,
      EVENT_BUS_NAME: eventBus.eventBusName,
    });
    const common = { logRetention: props.logRetention, sourceMapStackTraces: config.sourceMapStackTraces };

    this.start = new ExportFunction(this, 'Start', {
      ...common,
      handler: HandlerNames.START,
      memorySizeMb: API_FUNCTION_MEMORY_MB,
      timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS,
      environment,
    });
    this.checkStatus = new ExportFunction(this, 'CheckStatus', {
      ...common,
      handler: HandlerNames.CHECK_STATUS,
      memorySizeMb: API_FUNCTION_MEMORY_MB,
      timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS,
      environment,
    });
    this.workflowTask = new ExportFunction(this, 'WorkflowTask', {
      ...common,
      handler: HandlerNames.WORKFLOW_TASK,
      memorySizeMb: WORKFLOW_FUNCTION_MEMORY_MB,
      timeoutSeconds: WORKFLOW_TASK_FUNCTION_TIMEOUT_SECONDS,
      environment,
    });
    this.reconcile = new ExportFunction(this, 'Reconcile', {
      ...common,
      handler: HandlerNames.RECONCILE,
      memorySizeMb: WORKFLOW_FUNCTION_MEMORY_MB,
      timeoutSeconds: RECONCILE_FUNCTION_TIMEOUT_SECONDS,
      environment,
    });
    this.abort = new ExportFunction(this, 'Abort', {
      ...common,
      handler: HandlerNames.ABORT,
      memorySizeMb: API_FUNCTION_MEMORY_MB,
      timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS,
      environment,
    });
    this.list = new ExportFunction(this, 'List', {
      ...common,
      handler: HandlerNames.LIST,
      memorySizeMb: API_FUNCTION_MEMORY_MB,
      timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS,
      environment,
    });
    this.coverage = new ExportFunction(this, 'Coverage', {
      ...common,
      handler: HandlerNames.COVERAGE,
      memorySizeMb: API_FUNCTION_MEMORY_MB,
      timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS,
      environment,
    });
    this.backfills = new ExportFunction(this, 'Backfills', {
      ...common,
      handler: HandlerNames.BACKFILLS,
      memorySizeMb: API_FUNCTION_MEMORY_MB,
      timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS,
      environment,
    });

    const archiveEnvironment = functionEnvironment('archive', config, {
      TABLE_NAME: table.table.tableName,
      EVENT_BUS_NAME: eventBus.eventBusName,
      ARCHIVE_BUCKET_NAME: props.archive.bucket.bucketName,
    });
    this.files = new ExportFunction(this, 'Files', {
      ...common,
      handler: HandlerNames.FILES,
      memorySizeMb: API_FUNCTION_MEMORY_MB,
      timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS,
      // The URL it presigns downloads for, virtual-hosted in the stack's own partition.
      environment: {
        ...archiveEnvironment,
        ARCHIVE_BUCKET_URL: `https://${props.archive.bucket.bucketRegionalDomainName}`,
      },
    });
    this.archive = new ExportFunction(this, 'Archive', {
      ...common,
      handler: HandlerNames.ARCHIVE,
      memorySizeMb: ARCHIVE_MEMORY_MB,
      timeoutSeconds: ARCHIVE_FUNCTION_TIMEOUT_SECONDS,
      ephemeralStorageMb: ARCHIVE_EPHEMERAL_STORAGE_MB,
      environment: archiveEnvironment,
    });

    const tableArn = table.table.tableArn;
    const statusIndexArn = table.indexArn(ExportTableIndex.byStatus);
    const activeIndexArn = table.indexArn(ExportTableIndex.activeByLastPolled);
    // DeleteItem releases the spot lock and drops an idempotency record after a failed start.
    const recordWrites = [
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ];
    const secretsArn = Stack.of(this).formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${config.secretNamePrefix}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const readSpotSecrets = [
      new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretsArn] }),
    ];
    if (config.secretsKmsKeyArn !== undefined) {
      requireKeyInStackRegion(this, 'SecretsKeyInStackRegion', config.secretsKmsKeyArn, 'secretsKmsKeyArn');
      // Secrets Manager decrypts a secret with the caller's permission on its key: only through
      // Secrets Manager, never a direct Decrypt.
      readSpotSecrets.push(
        new iam.PolicyStatement({
          actions: ['kms:Decrypt'],
          resources: [config.secretsKmsKeyArn],
          conditions: {
            StringEquals: { 'kms:ViaService': `secretsmanager.${Stack.of(this).region}.${Aws.URL_SUFFIX}` },
          },
        }),
      );
    }
    const publishExportEvents = new iam.PolicyStatement({
      actions: ['events:PutEvents'],
      resources: [eventBus.eventBusArn],
    });

    const startWorkflow = new iam.PolicyStatement({
      actions: ['states:StartExecution'],
      resources: [props.stateMachineArn],
    });
    const stopWorkflows = new iam.PolicyStatement({
      actions: ['states:StopExecution'],
      resources: [props.executionsArn],
    });
    // Query reads the link pages of an export whose links did not fit in its item, and a spot's
    // own exports (newest first) when an upstream id is recovered from the upstream's list.
    const readRecords = (...indexes: string[]) =>
      new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [tableArn, ...indexes] });

    // A start records the export (and a schedule's windows) and starts its workflow, or queues it
    // and starts the head of the spot's queue (the status index); it never ends an export. A
    // replayed start reads the export it answers with, paged links included.
    this.start.addToPolicy(
      new iam.PolicyStatement({ actions: recordWrites, resources: [tableArn] }),
      readRecords(statusIndexArn),
      ...readSpotSecrets,
      startWorkflow,
    );
    // A status read polls a stale export and records its end: the spot freed, the end announced,
    // its window written, the spot's next queued export started.
    this.checkStatus.addToPolicy(
      new iam.PolicyStatement({ actions: recordWrites, resources: [tableArn] }),
      readRecords(statusIndexArn),
      ...readSpotSecrets,
      startWorkflow,
      publishExportEvents,
    );
    // The workflow's tasks: the create learns the first wait from the spot's completed exports
    // (the status index); an abort that met a create in flight is sent, stopping the workflow; an
    // export's end starts the spot's next queued one.
    this.workflowTask.addToPolicy(
      new iam.PolicyStatement({ actions: recordWrites, resources: [tableArn] }),
      readRecords(statusIndexArn),
      ...readSpotSecrets,
      startWorkflow,
      stopWorkflows,
      publishExportEvents,
    );
    // The reconciler finds what is due through the sparse reconciler index (stale, queued and
    // unarchived exports, due windows), restarts a workflow that died (after checking it is not
    // running), finishes interrupted aborts, and once reads the whole table for exports from
    // before their archives were indexed.
    this.reconcile.addToPolicy(
      new iam.PolicyStatement({ actions: [...recordWrites, 'dynamodb:Scan'], resources: [tableArn] }),
      readRecords(statusIndexArn, activeIndexArn),
      ...readSpotSecrets,
      startWorkflow,
      new iam.PolicyStatement({ actions: ['states:DescribeExecution'], resources: [props.executionsArn] }),
      stopWorkflows,
      publishExportEvents,
    );
    this.abort.addToPolicy(
      new iam.PolicyStatement({ actions: recordWrites, resources: [tableArn] }),
      readRecords(statusIndexArn),
      ...readSpotSecrets,
      startWorkflow,
      stopWorkflows,
      publishExportEvents,
    );
    // A backfill records its plan and windows and queues their exports (starting the head of the
    // queue); its progress reads the ledger and the spot's queue; its abort withdraws windows
    // (DeleteItem), aborts queued and running exports (upstream, stopping the workflow, freeing
    // the spot) and announces their ends.
    this.backfills.addToPolicy(
      new iam.PolicyStatement({ actions: recordWrites, resources: [tableArn] }),
      readRecords(statusIndexArn),
      ...readSpotSecrets,
      startWorkflow,
      stopWorkflows,
      publishExportEvents,
    );
    // Listing only queries (the table for a spot's exports and link pages, the index by status).
    this.list.addToPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [tableArn, statusIndexArn] }),
    );
    // Coverage queries the spot's windows and watermarks, in its partition of the table: no index.
    this.coverage.addToPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [tableArn] }),
    );

    // The archive writes the raw files under their prefix and their Parquet copies under the tables'
    // prefix, nothing else (the multipart calls are covered by PutObject); the files function reads
    // the raw files only, to presign GETs, and can write nothing.
    const archiveObjects = props.archive.bucket.arnForObjects(`${ARCHIVE_KEY_PREFIX}*`);
    const tableObjects = props.archive.bucket.arnForObjects(`${TABLES_KEY_PREFIX}*`);
    this.archive.addToPolicy(
      // Query reads the link pages of an export whose links did not fit in its item; PutItem and
      // UpdateItem write its window in the coverage ledger (PutItem: a window no planner recorded).
      new iam.PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query'],
        resources: [tableArn],
      }),
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: [archiveObjects, tableObjects],
      }),
      publishExportEvents,
    );
    this.files.addToPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:Query'], resources: [tableArn] }),
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [archiveObjects] }),
      // Never sent: with it S3 answers a read (and a URL it signed) of a missing object 404 NoSuchKey
      // instead of 403, so an archive whose files are gone is told from a refused read.
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.archive.bucket.bucketArn] }),
    );
    const key = props.archive.encryptionKey;
    if (key !== undefined) {
      // Exact actions, no `GenerateDataKey*`: S3 asks for a data key to write (and to decrypt the
      // parts of a multipart upload when completing it), and to decrypt on read.
      this.archive.addToPolicy(
        new iam.PolicyStatement({ actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: [key.keyArn] }),
      );
      this.files.addToPolicy(new iam.PolicyStatement({ actions: ['kms:Decrypt'], resources: [key.keyArn] }));
    }
    for (const fn of [this.archive, this.files]) {
      Validations.of(fn.role).acknowledge({
        id: iamWildcardResourceFindingId(this, archiveObjects),
        reason:
          'Archived objects are keyed by spot, day and export at run time; the grant is limited to the archive prefix of this bucket.',
      });
    }
    Validations.of(this.archive.role).acknowledge({
      id: iamWildcardResourceFindingId(this, tableObjects),
      reason:
        'Table files (Parquet) are keyed by spot, day and export at run time; the grant is limited to the tables prefix of this bucket.',
    });

    for (const fn of [
      this.start,
      this.checkStatus,
      this.workflowTask,
      this.reconcile,
      this.abort,
      this.backfills,
    ]) {
      Validations.of(fn.role).acknowledge({
        id: iamWildcardResourceFindingId(this, secretsArn),
        reason:
          'Secret ARNs end in a random suffix, so the grant names the configured prefix: one secret per spot, <prefix><spotId>.',
      });
    }
    for (const fn of [this.workflowTask, this.reconcile, this.abort, this.backfills]) {
      Validations.of(fn.role).acknowledge({
        id: iamWildcardResourceFindingId(this, props.executionsArn),
        reason:
          'Execution names are derived from export ids at run time; the grant is limited to executions of the polling state machine.',
      });
    }
  }

  all(): ExportFunction[] {
    return [
      this.start,
      this.checkStatus,
      this.abort,
      this.list,
      this.files,
      this.workflowTask,
      this.archive,
      this.reconcile,
      this.coverage,
      this.backfills,
    ];
  }

  byHandler(handler: HandlerName): ExportFunction {
    const found = this.all().find((fn) => fn.handlerName === handler);
    if (found === undefined) throw new Error(`no function runs the ${handler} handler`);
    return found;
  }
}
