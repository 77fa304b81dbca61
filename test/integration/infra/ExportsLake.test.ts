import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStackConfig, StackConfigError } from '../../../infra/stackConfig';
import { PARQUET_STORAGE } from '../../../lib/glue/commentRowsStorage';
import { HandlerNames } from '../../../lib/http/routeTable';
import { COMMENT_CHANGES_VIEW_COLUMNS, COMMENT_CHANGES_VIEW_SQL } from '../../../lib/lake/commentChangesView';
import { COMMENT_ROW_COLUMNS, type LakeColumn } from '../../../lib/lake/commentRowsTable';
import { COMMENTS_VIEW_COLUMNS, COMMENTS_VIEW_SQL } from '../../../lib/lake/commentsView';
import { captureError } from '../../support/captureError';
import {
  EMBEDDED,
  removeTestAssemblies,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from './synthesizeTestStack';
import {
  functionOf,
  type PolicyStatementJson,
  resourcesOfType,
  statementsOfFunction,
  type TemplateResource,
} from './templateQueries';

const KMS_KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const SYNTH_TIMEOUT_MS = 120_000;

let defaults: SynthesizedTestStack;
let configured: SynthesizedTestStack;
let embedded: SynthesizedTestStack;

beforeAll(() => {
  defaults = synthesizeTestStack({});
  configured = synthesizeTestStack({
    archive: {
      catalogDatabaseName: 'exports_lake',
      maxScannedGigabytesPerQuery: 25,
      kmsKeyArn: KMS_KEY_ARN,
      queryResultsExpireAfterDays: 2,
    },
  });
  embedded = synthesizeTestStack({}, 'embedded');
}, SYNTH_TIMEOUT_MS);

afterAll(() => {
  removeTestAssemblies();
});

function only(stack: SynthesizedTestStack, type: string): [string, TemplateResource] {
  const resources = resourcesOfType(stack.template, type);
  expect(resources, type).toHaveLength(1);
  return resources[0] as [string, TemplateResource];
}

function glueTable(stack: SynthesizedTestStack, name: string): Record<string, unknown> {
  const tables = resourcesOfType(stack.template, 'AWS::Glue::Table').filter(
    ([, table]) => (table.Properties.TableInput as { Name: string }).Name === name,
  );
  expect(tables, name).toHaveLength(1);
  return (tables[0] as [string, TemplateResource])[1].Properties;
}

const bucketLogicalId = (stack: SynthesizedTestStack) => only(stack, 'AWS::S3::Bucket')[0];

/** `s3://<the archive bucket>/<path>` as the template joins it. */
function bucketUrl(stack: SynthesizedTestStack, path: string) {
  return { 'Fn::Join': ['', ['s3://', { Ref: bucketLogicalId(stack) }, path]] };
}

/** The ARN pattern's resource part, e.g. `:table/openweb_exports/comment_rows`, of each resource granted. */
function arnTails(statement: PolicyStatementJson | undefined): string[] {
  return [statement?.Resource]
    .flat()
    .map((resource) => JSON.stringify(resource))
    .map((text) => /:glue:.*?"(:[^"]+)"/.exec(text)?.[1] ?? /"(:workgroup\/[^"]+)"/.exec(text)?.[1] ?? text);
}

describe('the lake: catalog table, view and Athena workgroup', () => {
  it('creates the Glue database, named after the stack unless configured', () => {
    // Act
    const [, database] = only(defaults, 'AWS::Glue::Database');
    const [, named] = only(configured, 'AWS::Glue::Database');

    // Assess
    expect(database.Properties).toMatchObject({
      CatalogId: { Ref: 'AWS::AccountId' },
      DatabaseInput: { Name: 'openwebexports' },
    });
    expect(named.Properties).toMatchObject({ DatabaseInput: { Name: 'exports_lake' } });
  });

  it("describes comment_rows as the contract's Parquet files under tables/comments/, partitioned by spot and date", () => {
    // Act
    const table = glueTable(defaults, 'comment_rows');
    const [databaseId] = only(defaults, 'AWS::Glue::Database');

    // Assess
    expect(table.DatabaseName).toEqual({ Ref: databaseId });
    expect(table.TableInput).toEqual({
      Name: 'comment_rows',
      Description: expect.any(String),
      TableType: 'EXTERNAL_TABLE',
      Parameters: { classification: 'parquet', EXTERNAL: 'TRUE' },
      PartitionKeys: [
        { Name: 'spot', Type: 'string', Comment: expect.any(String) },
        { Name: 'date', Type: 'string', Comment: expect.any(String) },
      ],
      StorageDescriptor: {
        Columns: COMMENT_ROW_COLUMNS.map((column) => ({
          Name: column.name,
          Type: column.type,
          Comment: column.description,
        })),
        Location: bucketUrl(defaults, '/tables/comments/'),
        InputFormat: PARQUET_STORAGE.inputFormat,
        OutputFormat: PARQUET_STORAGE.outputFormat,
        SerdeInfo: {
          SerializationLibrary: PARQUET_STORAGE.serializationLibrary,
          Parameters: { 'serialization.format': '1' },
        },
      },
    });
    expect(
      (
        table.TableInput as { StorageDescriptor: { Columns: { Name: string; Type: string }[] } }
      ).StorageDescriptor.Columns.map(({ Name, Type }) => `${Name} ${Type}`),
    ).toEqual([
      'id string',
      'user_id string',
      'user_name string',
      'spot_id string',
      'post_id string',
      'message_status string',
      'content string',
      'rank bigint',
      'written_at timestamp',
      'extra_columns string',
      'unparsed_values string',
      'export_id string',
      'window_from timestamp',
      'window_until timestamp',
      'exported_at timestamp',
      'source_file string',
    ]);
  });

  it.each<[string, string, readonly LakeColumn[]]>([
    ['comments', COMMENTS_VIEW_SQL, COMMENTS_VIEW_COLUMNS],
    ['comment_changes', COMMENT_CHANGES_VIEW_SQL, COMMENT_CHANGES_VIEW_COLUMNS],
  ])(
    'creates the %s view as Athena stores a view: its SQL and typed columns, base64 in a Presto comment',
    (name, sql, columns) => {
      // Act
      const view = glueTable(configured, name).TableInput as {
        TableType: string;
        Parameters: Record<string, string>;
        ViewOriginalText: string;
        ViewExpandedText: string;
        StorageDescriptor: { Columns: { Name: string; Type: string }[] };
      };
      const encoded = /^\/\* Presto View: ([A-Za-z0-9+/=]+) \*\/$/.exec(view.ViewOriginalText)?.[1] ?? '';
      const definition = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));

      // Assess
      expect(view.TableType).toBe('VIRTUAL_VIEW');
      expect(view.Parameters).toEqual({ presto_view: 'true', comment: 'Presto View' });
      expect(view.ViewExpandedText).toBe('/* Presto View */');
      expect(definition).toEqual({
        originalSql: sql,
        catalog: 'awsdatacatalog',
        schema: 'exports_lake',
        columns: columns.map((column) => ({
          name: column.name,
          type: { string: 'varchar', bigint: 'bigint', timestamp: 'timestamp' }[column.type],
        })),
      });
      expect(view.StorageDescriptor.Columns.map(({ Name, Type }) => `${Name} ${Type}`)).toEqual(
        columns.map((column) => `${column.name} ${column.type}`),
      );
    },
  );

  it('creates a workgroup with its own encrypted results location, an enforced configuration and a bytes limit', () => {
    // Act
    const [, workGroup] = only(defaults, 'AWS::Athena::WorkGroup');
    const [, withKey] = only(configured, 'AWS::Athena::WorkGroup');
    const [, inAnotherApp] = only(embedded, 'AWS::Athena::WorkGroup');

    // Assess
    expect(workGroup.Properties).toMatchObject({
      Name: defaults.namePrefix,
      State: 'ENABLED',
      WorkGroupConfiguration: {
        EnforceWorkGroupConfiguration: true,
        PublishCloudWatchMetricsEnabled: true,
        BytesScannedCutoffPerQuery: 10_000_000_000,
        EngineVersion: { SelectedEngineVersion: 'Athena engine version 3' },
        ResultConfiguration: {
          OutputLocation: bucketUrl(defaults, '/athena-results/'),
          ExpectedBucketOwner: { Ref: 'AWS::AccountId' },
          EncryptionConfiguration: { EncryptionOption: 'SSE_S3' },
        },
      },
    });
    expect(withKey.Properties).toMatchObject({
      WorkGroupConfiguration: {
        BytesScannedCutoffPerQuery: 25_000_000_000,
        ResultConfiguration: {
          EncryptionConfiguration: { EncryptionOption: 'SSE_KMS', KmsKey: KMS_KEY_ARN },
        },
      },
    });
    expect(inAnotherApp.Properties.Name).toBe(`${EMBEDDED.stackName}-${EMBEDDED.constructId}`);
  });

  it("expires the workgroup's results within a week", () => {
    // Act
    const rules = (
      only(defaults, 'AWS::S3::Bucket')[1].Properties.LifecycleConfiguration as {
        Rules: Record<string, unknown>[];
      }
    ).Rules;

    // Assess
    expect(rules).toContainEqual({
      Id: 'AthenaQueryResults',
      Prefix: 'athena-results/',
      Status: 'Enabled',
      ExpirationInDays: 7,
      NoncurrentVersionExpiration: { NoncurrentDays: 1 },
      AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
    });
  });

  it("expires the workgroup's results after the configured days", () => {
    // Act
    const rules = (
      only(configured, 'AWS::S3::Bucket')[1].Properties.LifecycleConfiguration as {
        Rules: Record<string, unknown>[];
      }
    ).Rules;

    // Assess
    expect(rules).toContainEqual(expect.objectContaining({ Id: 'AthenaQueryResults', ExpirationInDays: 2 }));
  });

  it('lets the archive function create, read and repair partitions of comment_rows only, list the table prefix only, and tells it the database', () => {
    // Act
    const glueStatements = statementsOfFunction(configured.template, HandlerNames.ARCHIVE).filter(
      (statement) => [statement.Action].flat().some((action) => action.startsWith('glue:')),
    );
    // The erasure task's table check (Athena, and the catalog reads it makes) is tested with its grants.
    const others = Object.values(HandlerNames)
      .filter((handler) => handler !== HandlerNames.ARCHIVE && handler !== HandlerNames.ERASURE_TASK)
      .flatMap((handler) => statementsOfFunction(configured.template, handler))
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => action.startsWith('glue:') || action.startsWith('athena:'));
    const environment = (handler: (typeof HandlerNames)[keyof typeof HandlerNames]) =>
      (
        functionOf(configured.template, handler)[1].Properties.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
    const listing = statementsOfFunction(configured.template, HandlerNames.ARCHIVE).filter((statement) =>
      [statement.Action].flat().includes('s3:ListBucket'),
    );

    // Assess
    expect(glueStatements).toHaveLength(1);
    // Its export's partition (CreatePartition); the repair's reading and adding (GetPartitions, BatchCreatePartition).
    expect(glueStatements[0]?.Action).toEqual([
      'glue:BatchCreatePartition',
      'glue:CreatePartition',
      'glue:GetPartitions',
    ]);
    expect(arnTails(glueStatements[0])).toEqual([
      ':catalog',
      ':database/exports_lake',
      ':table/exports_lake/comment_rows',
    ]);
    expect(others).toEqual([]);
    // The repair lists the stored partitions: the bucket, only under the table's prefix.
    expect(listing).toHaveLength(1);
    expect(listing[0]).toMatchObject({
      Action: 's3:ListBucket',
      Condition: { StringLike: { 's3:prefix': ['tables/comments/*'] } },
    });
    expect(JSON.stringify(listing[0]?.Resource)).toContain('ArchiveBucket');
    expect(environment(HandlerNames.ARCHIVE).LAKE_DATABASE_NAME).toBe('exports_lake');
    // The files function shares the archive group's settings; it never builds the Glue adapter.
  });

  it('offers a query policy: this workgroup, this database, the table files and the results, the key', () => {
    // Act
    const [, policy] = only(configured, 'AWS::IAM::ManagedPolicy');
    const statements = (policy.Properties.PolicyDocument as { Statement: PolicyStatementJson[] }).Statement;
    const granting = (action: string) =>
      statements.filter((statement) => [statement.Action].flat().includes(action));

    // Assess
    expect(statements.map((statement) => [statement.Action].flat().sort())).toEqual([
      [
        'athena:GetQueryExecution',
        'athena:GetQueryResults',
        'athena:StartQueryExecution',
        'athena:StopQueryExecution',
      ],
      [
        'glue:BatchGetPartition',
        'glue:GetDatabase',
        'glue:GetPartition',
        'glue:GetPartitions',
        'glue:GetTable',
      ],
      ['s3:GetBucketLocation'],
      ['s3:ListBucket'],
      ['s3:GetObject'],
      ['s3:AbortMultipartUpload', 's3:GetObject', 's3:PutObject'],
      ['kms:Decrypt', 'kms:GenerateDataKey'],
    ]);
    expect(arnTails(granting('athena:StartQueryExecution')[0])).toEqual([
      `:workgroup/${configured.namePrefix}`,
    ]);
    expect(arnTails(granting('glue:GetTable')[0])).toEqual([
      ':catalog',
      ':database/exports_lake',
      ':table/exports_lake/comment_changes',
      ':table/exports_lake/comment_rows',
      ':table/exports_lake/comments',
    ]);
    expect(granting('s3:GetObject').map((statement) => JSON.stringify(statement.Resource))).toEqual([
      expect.stringMatching(/"\/tables\/comments\/\*"\]\]\}$/),
      expect.stringMatching(/"\/athena-results\/\*"\]\]\}$/),
    ]);
    expect(granting('s3:ListBucket')[0]).toMatchObject({
      Condition: { StringLike: { 's3:prefix': ['tables/comments/*', 'athena-results/*'] } },
    });
    expect(granting('kms:Decrypt')[0]?.Resource).toBe(KMS_KEY_ARN);
  });

  it('outputs the database, the workgroup and the query policy next to the bucket', () => {
    // Act
    const outputs = defaults.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    const [databaseId] = only(defaults, 'AWS::Glue::Database');
    const [workGroupId] = only(defaults, 'AWS::Athena::WorkGroup');
    const [policyId] = only(defaults, 'AWS::IAM::ManagedPolicy');

    // Assess
    expect(outputs.LakeDatabaseName?.Value).toEqual({ Ref: databaseId });
    expect(outputs.AthenaWorkGroupName?.Value).toEqual({ Ref: workGroupId });
    expect(outputs.LakeQueryPolicyArn?.Value).toEqual({ Ref: policyId });
  });

  it.each([
    [
      { catalogDatabaseName: 'Exports-Lake' },
      'openwebExports.archive.catalogDatabaseName: must be 1-255 of a-z, 0-9 and _ (the names Athena reads)',
    ],
    [
      { maxScannedGigabytesPerQuery: 0 },
      'openwebExports.archive.maxScannedGigabytesPerQuery: must be at least 1',
    ],
    [
      { maxScannedGigabytesPerQuery: 2.5 },
      'openwebExports.archive.maxScannedGigabytesPerQuery: must be an integer',
    ],
  ])('refuses %j with an error naming the key', async (archive, message) => {
    // Act
    const error = await captureError((async () => parseStackConfig({ archive }))());

    // Assess
    expect(error).toBeInstanceOf(StackConfigError);
    expect((error as StackConfigError).problems).toContain(message);
  });
});
