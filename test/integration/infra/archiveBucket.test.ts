import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStackConfig, StackConfigError } from '../../../infra/stackConfig';
import { HandlerNames } from '../../../lib/http/routeTable';
import { removeTestAssemblies, type SynthesizedTestStack, synthesizeTestStack } from './synthesizeTestStack';
import {
  actionsOf,
  functionOf,
  resourcesGranting,
  resourcesOfType,
  statementsOfFunction,
} from './templateQueries';

const KMS_KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const FUNCTION_BASICS = [
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'xray:PutTelemetryRecords',
  'xray:PutTraceSegments',
];

let defaults: SynthesizedTestStack;
let configured: SynthesizedTestStack;

beforeAll(() => {
  defaults = synthesizeTestStack({});
  configured = synthesizeTestStack({
    archive: {
      infrequentAccessAfterDays: null,
      expireAfterDays: 365,
      kmsKeyArn: KMS_KEY_ARN,
      downloadUrlExpirySeconds: 3600,
    },
  });
}, 120_000);

afterAll(() => {
  removeTestAssemblies();
});

function bucketOf(stack: SynthesizedTestStack) {
  const buckets = resourcesOfType(stack.template, 'AWS::S3::Bucket');
  expect(buckets).toHaveLength(1);
  return (buckets[0] as (typeof buckets)[number])[1];
}

describe('the archive bucket', () => {
  it('moves files to Standard-IA after 90 days, expires replaced versions and query results, and cleans up unfinished uploads', () => {
    // Act
    const rules = (
      bucketOf(defaults).Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }
    ).Rules;

    // Assess
    expect(rules).toEqual([
      {
        Id: 'ArchivedExports',
        Prefix: 'exports/',
        Status: 'Enabled',
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        NoncurrentVersionExpiration: { NoncurrentDays: 30 },
        Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 90 }],
      },
      {
        Id: 'ArchivedTables',
        Prefix: 'tables/',
        Status: 'Enabled',
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        NoncurrentVersionExpiration: { NoncurrentDays: 30 },
      },
      {
        Id: 'AthenaQueryResults',
        Prefix: 'athena-results/',
        Status: 'Enabled',
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        ExpirationInDays: 7,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
      },
    ]);
  });

  it('takes lifecycle, a KMS key and the URL lifetime from the configuration', () => {
    // Act
    const bucket = bucketOf(configured);
    const [rule, tablesRule] = (
      bucket.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }
    ).Rules;
    const archiveKms = resourcesGranting(
      statementsOfFunction(configured.template, HandlerNames.ARCHIVE),
      'kms:GenerateDataKey',
    );
    const filesKms = actionsOf(statementsOfFunction(configured.template, HandlerNames.FILES)).filter((a) =>
      a.startsWith('kms:'),
    );

    // Assess
    expect(rule).not.toHaveProperty('Transitions');
    expect(rule).toMatchObject({ ExpirationInDays: 365 });
    expect(tablesRule).toMatchObject({ Prefix: 'tables/', ExpirationInDays: 365 });
    expect(tablesRule).not.toHaveProperty('Transitions');
    expect(bucket.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [
        {
          BucketKeyEnabled: true,
          ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: KMS_KEY_ARN },
        },
      ],
    });
    expect(archiveKms).toEqual([JSON.stringify(KMS_KEY_ARN)]);
    expect(filesKms).toEqual(['kms:Decrypt']);
    const [, files] = functionOf(configured.template, HandlerNames.FILES);
    expect(
      (files.Properties.Environment as { Variables: Record<string, unknown> }).Variables
        .ARCHIVE_URL_EXPIRY_SECONDS,
    ).toBe('3600');
  });

  it('lets the archive function only write under the archive and tables prefixes, and the files function only read (and list) the archive', () => {
    // Act
    const archiveActions = actionsOf(statementsOfFunction(defaults.template, HandlerNames.ARCHIVE));
    const filesActions = actionsOf(statementsOfFunction(defaults.template, HandlerNames.FILES));
    const written = resourcesGranting(
      statementsOfFunction(defaults.template, HandlerNames.ARCHIVE),
      's3:PutObject',
    );
    const read = resourcesGranting(
      statementsOfFunction(defaults.template, HandlerNames.FILES),
      's3:GetObject',
    );

    // Assess
    expect(archiveActions).toEqual(
      [
        ...FUNCTION_BASICS,
        'dynamodb:GetItem',
        // Records the window's outcome in the coverage ledger (an interval, a window's state).
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        's3:AbortMultipartUpload',
        's3:PutObject',
        'events:PutEvents',
        // Registers the table partition of the Parquet files it stored, and repairs those the
        // catalog lacks from the table prefix's listing (ExportsLake).
        'glue:BatchCreatePartition',
        'glue:CreatePartition',
        'glue:GetPartitions',
        's3:ListBucket',
      ].sort(),
    );
    expect(filesActions).toEqual(
      [...FUNCTION_BASICS, 'dynamodb:GetItem', 'dynamodb:Query', 's3:GetObject', 's3:ListBucket'].sort(),
    );
    expect(written).toEqual([
      expect.stringMatching(/"\/exports\/\*"\]\]\}$/),
      expect.stringMatching(/"\/tables\/\*"\]\]\}$/),
    ]);
    expect(read).toEqual([written[0]]);
  });

  it.each([
    [
      { infrequentAccessAfterDays: 10 },
      'openwebExports.archive.infrequentAccessAfterDays: must be at least 30',
    ],
    [
      { expireAfterDays: 60 },
      'openwebExports.archive.expireAfterDays: must be more than infrequentAccessAfterDays (90)',
    ],
    [{ kmsKeyArn: 'alias/mine' }, 'openwebExports.archive.kmsKeyArn: must be a KMS key ARN'],
    [{ bucketName: 'x' }, 'openwebExports.archive: unknown key "bucketName"'],
  ])('refuses %j with an error naming the key', (archive, message) => {
    const error = (() => {
      try {
        parseStackConfig({ archive });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(StackConfigError);
    expect((error as StackConfigError).problems.join('\n')).toContain(message);
  });
});
