import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as glue from 'aws-cdk-lib/aws-glue';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  COMMENT_ROWS_TABLE_PARAMETERS,
  commentRowsLocation,
  PARQUET_STORAGE,
} from '../lib/glue/commentRowsStorage';
import {
  COMMENT_CHANGES_VIEW_COLUMNS,
  COMMENT_CHANGES_VIEW_NAME,
  COMMENT_CHANGES_VIEW_SQL,
} from '../lib/lake/commentChangesView';
import {
  COMMENT_ROW_COLUMNS,
  COMMENT_ROWS_KEY_PREFIX,
  COMMENT_ROWS_PARTITION_KEYS,
  COMMENT_ROWS_TABLE_NAME,
  type LakeColumn,
  LakeColumnType,
} from '../lib/lake/commentRowsTable';
import { COMMENTS_VIEW_COLUMNS, COMMENTS_VIEW_NAME, COMMENTS_VIEW_SQL } from '../lib/lake/commentsView';
import { iamWildcardResourceFindingId } from './nagFindingIds';

/** Where Athena writes query results in the archive bucket. */
export const ATHENA_RESULTS_KEY_PREFIX = 'athena-results/';
const ATHENA_RESULTS_NONCURRENT_EXPIRE_AFTER_DAYS = 1;
const ABORT_INCOMPLETE_UPLOADS_AFTER_DAYS = 1;
export const ATHENA_ENGINE_VERSION = 'Athena engine version 3';
/** `maxScannedGigabytesPerQuery` counts gigabytes of 10^9 bytes, as Athena's limit does bytes. */
const BYTES_PER_GIGABYTE = 1_000_000_000;
/** The catalog of the account's Glue databases, as Athena names it. */
const ATHENA_GLUE_CATALOG = 'awsdatacatalog';

/** The type a Presto (Athena) view declares for a catalog column type. */
const PRESTO_TYPES: Record<LakeColumnType, string> = {
  [LakeColumnType.STRING]: 'varchar',
  [LakeColumnType.BIGINT]: 'bigint',
  [LakeColumnType.TIMESTAMP]: 'timestamp',
};

export interface ExportsLakeProps {
  /** The archive bucket: the table's files are under `tables/comments/`, query results under `athena-results/`. */
  bucket: s3.Bucket;
  /** The bucket's KMS key; undefined for S3-managed keys. */
  encryptionKey: kms.IKey | undefined;
  databaseName: string;
  workGroupName: string;
  /** Athena cancels a query of the workgroup that would scan more. */
  maxScannedGigabytesPerQuery: number;
  /**
   * Query results are for the one who asked (the CLI reads them at once): deleted after this many
   * days, so a result holding an erased user's rows does not outlive an erasure's deadline.
   */
  queryResultsExpireAfterDays: number;
}

/**
 * The archive as a queryable table, right after `cdk deploy`: a Glue database with the
 * `comment_rows` table over the Parquet files (partitioned by `spot` and `date`; the archive
 * registers each partition it writes, and repairs those the catalog lacks from the bucket's keys), the `comments` view of one row per comment (its newest
 * version, less those deleted at the source) and the `comment_changes` view of every change, and an
 * Athena workgroup whose results are encrypted in the archive bucket and expire, and which
 * cancels a query past its scanned-bytes limit.
 */
export class ExportsLake extends Construct {
  readonly databaseName: string;
  readonly workGroupName: string;
  readonly database: glue.CfnDatabase;
  readonly table: glue.CfnTable;
  readonly view: glue.CfnTable;
  readonly changesView: glue.CfnTable;
  readonly workGroup: athena.CfnWorkGroup;
  /** Attach it to whoever runs `openweb-exports query` against this deployment. */
  readonly queryPolicy: iam.ManagedPolicy;
  readonly #bucket: s3.Bucket;
  readonly #encryptionKey: kms.IKey | undefined;

  constructor(scope: Construct, id: string, props: ExportsLakeProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { bucket, databaseName } = props;
    this.databaseName = databaseName;
    this.workGroupName = props.workGroupName;
    this.#bucket = bucket;
    this.#encryptionKey = props.encryptionKey;

    this.database = new glue.CfnDatabase(this, 'Database', {
      catalogId: stack.account,
      databaseInput: {
        name: databaseName,
        description: 'The archived OpenWeb comment exports, as tables (openweb-exports)',
      },
    });

    // The database's Ref is its name: the table and view are created after it, deleted before it.
    this.table = new glue.CfnTable(this, 'CommentRows', {
      catalogId: stack.account,
      databaseName: this.database.ref,
      tableInput: {
        name: COMMENT_ROWS_TABLE_NAME,
        description: 'Every row of every archived export (Parquet, one file per exported CSV)',
        tableType: 'EXTERNAL_TABLE',
        parameters: { ...COMMENT_ROWS_TABLE_PARAMETERS },
        partitionKeys: catalogColumns(COMMENT_ROWS_PARTITION_KEYS),
        storageDescriptor: {
          columns: catalogColumns(COMMENT_ROW_COLUMNS),
          location: commentRowsLocation(bucket.bucketName),
          inputFormat: PARQUET_STORAGE.inputFormat,
          outputFormat: PARQUET_STORAGE.outputFormat,
          serdeInfo: {
            serializationLibrary: PARQUET_STORAGE.serializationLibrary,
            parameters: { ...PARQUET_STORAGE.serdeParameters },
          },
        },
      },
    });

    this.view = this.#prestoView('CommentsView', {
      name: COMMENTS_VIEW_NAME,
      description:
        'One row per comment: its newest version, less the comments a newer export of their window no longer holds',
      sql: COMMENTS_VIEW_SQL,
      columns: COMMENTS_VIEW_COLUMNS,
    });
    this.changesView = this.#prestoView('CommentChangesView', {
      name: COMMENT_CHANGES_VIEW_NAME,
      description:
        'One row per change seen between consecutive versions of a comment (a column, deleted, restored)',
      sql: COMMENT_CHANGES_VIEW_SQL,
      columns: COMMENT_CHANGES_VIEW_COLUMNS,
    });

    bucket.addLifecycleRule({
      id: 'AthenaQueryResults',
      prefix: ATHENA_RESULTS_KEY_PREFIX,
      expiration: Duration.days(props.queryResultsExpireAfterDays),
      noncurrentVersionExpiration: Duration.days(ATHENA_RESULTS_NONCURRENT_EXPIRE_AFTER_DAYS),
      abortIncompleteMultipartUploadAfter: Duration.days(ABORT_INCOMPLETE_UPLOADS_AFTER_DAYS),
    });
    const key = props.encryptionKey;
    this.workGroup = new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: props.workGroupName,
      description: 'Queries of the archived OpenWeb comment exports (openweb-exports)',
      state: 'ENABLED',
      // Deleting the stack deletes the workgroup's saved queries and history too, never the data.
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        // Clients cannot send results elsewhere, unencrypted, or past the limit.
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: props.maxScannedGigabytesPerQuery * BYTES_PER_GIGABYTE,
        engineVersion: { selectedEngineVersion: ATHENA_ENGINE_VERSION },
        resultConfiguration: {
          outputLocation: `s3://${bucket.bucketName}/${ATHENA_RESULTS_KEY_PREFIX}`,
          expectedBucketOwner: stack.account,
          encryptionConfiguration:
            key === undefined
              ? { encryptionOption: 'SSE_S3' }
              : { encryptionOption: 'SSE_KMS', kmsKey: key.keyArn },
        },
      },
    });

    // For the analysts' roles: everything `openweb-exports query` does, nothing more.
    this.queryPolicy = new iam.ManagedPolicy(this, 'QueryPolicy', {
      description: `Query the archived exports with Athena (workgroup ${props.workGroupName})`,
      statements: this.queryStatements(),
    });
    this.#acknowledgeObjectGrants(this.queryPolicy);
  }

  /** `arn:…:catalog`, `arn:…:database/<db>` and the ARN of each named table of the database. */
  catalogArns(...tableNames: string[]): string[] {
    const stack = Stack.of(this);
    const glueArn = (resource: string, resourceName?: string) =>
      stack.formatArn({ service: 'glue', resource, ...(resourceName !== undefined && { resourceName }) });
    return [
      glueArn('catalog'),
      glueArn('database', this.databaseName),
      ...tableNames.map((table) => glueArn('table', `${this.databaseName}/${table}`)),
    ];
  }

  get workGroupArn(): string {
    return Stack.of(this).formatArn({
      service: 'athena',
      resource: 'workgroup',
      resourceName: this.workGroupName,
    });
  }

  /**
   * What the archive's partition registration and repair send: CreatePartition (its export's),
   * GetPartitions and BatchCreatePartition (the repair: what the catalog holds, what it lacks) on
   * the comment rows table, which Glue authorizes against the catalog, the database and the table;
   * and ListBucket of the table's prefix only (the repair lists the stored `spot=…/date=…/`).
   */
  grantPartitionRegistration(grantee: iam.IGrantable): void {
    iam.Grant.addToPrincipal({
      grantee,
      actions: ['glue:CreatePartition', 'glue:GetPartitions', 'glue:BatchCreatePartition'],
      resourceArns: this.catalogArns(COMMENT_ROWS_TABLE_NAME),
    });
    iam.Grant.addToPrincipal({
      grantee,
      actions: ['s3:ListBucket'],
      resourceArns: [this.#bucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': [`${COMMENT_ROWS_KEY_PREFIX}*`] } },
    });
  }

  /**
   * What `openweb-exports query` needs on Athena: run queries in this workgroup only, read the
   * catalog's database, table, view and partitions, read the table's files, and write and read
   * the workgroup's results.
   */
  queryStatements(): iam.PolicyStatement[] {
    const bucket = this.#bucket;
    return [
      new iam.PolicyStatement({
        actions: [
          'athena:StartQueryExecution',
          'athena:GetQueryExecution',
          'athena:GetQueryResults',
          'athena:StopQueryExecution',
        ],
        resources: [this.workGroupArn],
      }),
      new iam.PolicyStatement({
        actions: [
          'glue:GetDatabase',
          'glue:GetTable',
          'glue:GetPartition',
          'glue:GetPartitions',
          'glue:BatchGetPartition',
        ],
        resources: this.catalogArns(COMMENT_ROWS_TABLE_NAME, COMMENTS_VIEW_NAME, COMMENT_CHANGES_VIEW_NAME),
      }),
      new iam.PolicyStatement({ actions: ['s3:GetBucketLocation'], resources: [bucket.bucketArn] }),
      ...this.#queryStorageStatements(),
    ];
  }

  /**
   * What an erasure's end sends to count the user's rows left in the table
   * (lib/lake/AthenaUserRowsQuery.ts): queries in this workgroup only; the database, the comment
   * rows table and its partitions; the table's files and the prefixes Athena lists; and the
   * workgroup's results, written and read.
   */
  grantUserRowsCount(role: iam.IRole): void {
    const _bucket = this.#bucket;
    const statements = [
      new iam.PolicyStatement({
        actions: [
          'athena:StartQueryExecution',
          'athena:GetQueryExecution',
          'athena:GetQueryResults',
          'athena:StopQueryExecution',
        ],
        resources: [this.workGroupArn],
      }),
      new iam.PolicyStatement({ actions: ['glue:GetDatabase'], resources: this.catalogArns() }),
      new iam.PolicyStatement({
        actions: ['glue:GetTable', 'glue:GetPartitions'],
        resources: this.catalogArns(COMMENT_ROWS_TABLE_NAME),
      }),
      ...this.#queryStorageStatements(),
    ];
    for (const statement of statements) role.addToPrincipalPolicy(statement);
    this.#acknowledgeObjectGrants(role);
  }

  /**
   * What Athena does in the bucket with the caller's permissions: list the table's and the
   * results' prefixes, read the table's files, write and read the results (with the bucket's key
   * when it has one).
   */
  #queryStorageStatements(): iam.PolicyStatement[] {
    const bucket = this.#bucket;
    return [
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: {
          StringLike: { 's3:prefix': [`${COMMENT_ROWS_KEY_PREFIX}*`, `${ATHENA_RESULTS_KEY_PREFIX}*`] },
        },
      }),
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [this.#tableObjectsArn()] }),
      new iam.PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload'],
        resources: [this.#resultObjectsArn()],
      }),
      ...(this.#encryptionKey === undefined
        ? []
        : [
            // Reads the table's files and the results; writes results encrypted with the key.
            new iam.PolicyStatement({
              actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
              resources: [this.#encryptionKey.keyArn],
            }),
          ]),
    ];
  }

  /** Lets `grantee` run `openweb-exports query` (see `queryStatements`). */
  grantQuery(grantee: iam.IGrantable): void {
    for (const statement of this.queryStatements()) grantee.grantPrincipal.addToPrincipalPolicy(statement);
  }

  /** A view of the database as Athena stores one (see `prestoViewText`), created after the database. */
  #prestoView(
    id: string,
    view: { name: string; description: string; sql: string; columns: readonly LakeColumn[] },
  ): glue.CfnTable {
    return new glue.CfnTable(this, id, {
      catalogId: Stack.of(this).account,
      databaseName: this.database.ref,
      tableInput: {
        name: view.name,
        description: view.description,
        tableType: 'VIRTUAL_VIEW',
        parameters: { presto_view: 'true', comment: 'Presto View' },
        viewOriginalText: prestoViewText(this.databaseName, view.sql, view.columns),
        viewExpandedText: '/* Presto View */',
        storageDescriptor: { columns: catalogColumns(view.columns), serdeInfo: {} },
      },
    });
  }

  #tableObjectsArn(): string {
    return this.#bucket.arnForObjects(`${COMMENT_ROWS_KEY_PREFIX}*`);
  }

  #resultObjectsArn(): string {
    return this.#bucket.arnForObjects(`${ATHENA_RESULTS_KEY_PREFIX}*`);
  }

  #acknowledgeObjectGrants(scope: Construct): void {
    Validations.of(scope).acknowledge({
      id: iamWildcardResourceFindingId(this, this.#tableObjectsArn()),
      reason:
        "The table's Parquet files are keyed by spot, day and export at run time; the grant is limited to the table's prefix of the archive bucket.",
    });
    Validations.of(scope).acknowledge({
      id: iamWildcardResourceFindingId(this, this.#resultObjectsArn()),
      reason:
        'Athena names each result object by its query id at run time; the grant is limited to the workgroup results prefix of the archive bucket.',
    });
  }
}

function catalogColumns(columns: readonly LakeColumn[]): glue.CfnTable.ColumnProperty[] {
  return columns.map((column) => ({ name: column.name, type: column.type, comment: column.description }));
}

/**
 * A view as Athena stores one in Glue: its SQL and output columns (Presto types), base64-encoded
 * JSON in a comment. Athena checks the columns against the query's at every use.
 */
export function prestoViewText(databaseName: string, sql: string, columns: readonly LakeColumn[]): string {
  const definition = {
    originalSql: sql,
    catalog: ATHENA_GLUE_CATALOG,
    schema: databaseName,
    columns: columns.map((column) => ({ name: column.name, type: PRESTO_TYPES[column.type] })),
  };
  return `/* Presto View: ${Buffer.from(JSON.stringify(definition), 'utf8').toString('base64')} */`;
}
