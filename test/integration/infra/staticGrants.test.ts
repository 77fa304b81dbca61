import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/ExportFunction';
import { FUNCTION_BUNDLING } from '../../../infra/functionBundling';
import { type HandlerName, HandlerNames, handlerEntryPath } from '../../../lib/http/routeTable';
import { esbuildOptionsFor } from '../../support/functionBundle';
import { sendableAwsOperations } from '../../support/sendableAwsOperations';
import {
  type ActionsByFunction,
  type GrantExceptions,
  staticGrantFindings,
} from '../../support/staticGrantCheck';
import { removeTestAssemblies, SCHEDULED_SPOT_CONFIG, synthesizeTestStack } from './synthesizeTestStack';
import { actionsOf, functionOf, type PolicyStatementJson, statementsOfFunction } from './templateQueries';

const BUNDLES_TIMEOUT_MS = 180_000;
const KEY = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
/** Every optional grant present: scheduled spots (their dead-letter queues), both customer-managed keys. */
const EVERY_GRANT_CONFIG = { ...SCHEDULED_SPOT_CONFIG, archive: { kmsKeyArn: KEY }, secretsKmsKeyArn: KEY };

/**
 * The adapters are classes: a bundle holds every method of each adapter it uses, so it can send
 * more than its handler ever asks for. These are the operations a function's bundle can send
 * that its role deliberately does not grant, each with the reason its handler never sends it.
 */
const NOT_GRANTED: Record<string, string> = {
  'start states:DescribeExecution': 'start only starts workflows; checking one is the reconciler’s',
  'start states:StopExecution': 'start never ends an export, so never stops a workflow',
  'check-status states:DescribeExecution': 'a status read never looks at a workflow',
  'check-status states:StopExecution':
    'a status read records an end the poll found; the workflow ends by itself',
  'abort states:DescribeExecution': 'an abort stops the workflow without looking at it first',
  'backfills states:DescribeExecution':
    'a backfill starts queued exports and stops aborted ones without looking at a workflow first',
  'workflow-task states:DescribeExecution': 'the tasks run inside a workflow and look at none',
  'list dynamodb:GetItem': 'the list handler only queries (its store port is listExports alone)',
  'list dynamodb:PutItem': 'the list handler writes nothing',
  'list dynamodb:UpdateItem': 'the list handler writes nothing',
  'list dynamodb:DeleteItem': 'the list handler writes nothing',
  ...Object.fromEntries(
    ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'].map((action) => [
      `coverage dynamodb:${action}`,
      'the coverage read only lists windows and watermarks (Query); the ledger adapter’s writes are the planners’',
    ]),
  ),
  ...Object.fromEntries(
    ['PutItem', 'UpdateItem', 'DeleteItem', 'Scan'].map((action) => [
      `spots dynamodb:${action}`,
      'the fleet view only reads (records, ledger, locks, backfills); the adapters’ writes are the lifecycle’s',
    ]),
  ),
  'files dynamodb:PutItem': 'the files handler reads the record (getExport) and writes nothing',
  'files dynamodb:UpdateItem': 'the files handler reads the record (getExport) and writes nothing',
  'files dynamodb:DeleteItem': 'the files handler reads the record (getExport) and writes nothing',
  'erasures dynamodb:UpdateItem':
    'the erasure routes send GetItem, PutItem and Query only (the erasure store, the suppression list); the bundle’s other commands are the shared handler runtime’s',
  'erasures dynamodb:DeleteItem':
    'the erasure routes send GetItem, PutItem and Query only (the erasure store, the suppression list); the bundle’s other commands are the shared handler runtime’s',
  'archive dynamodb:DeleteItem': 'the archive deletes nothing; link pages are replaced by the poll',
  ...Object.fromEntries(
    ['start', 'check-status', 'abort', 'list', 'files', 'workflow-task', 'archive', 'backfills'].map(
      (name) => [
        `${name} dynamodb:Scan`,
        'the export store reads the whole table once, for records from before the archive index: the reconciler’s sweep alone',
      ],
    ),
  ),
  'archive s3:PutObjectTagging':
    'lib-storage tags an upload only when given tags; the archive writer gives none',
  'erasures states:DescribeExecution':
    'the erasure routes only start the erasure workflow; the Step Functions adapter’s describe and stop are the export lifecycle’s',
  'erasures states:StopExecution':
    'the erasure routes only start the erasure workflow; the Step Functions adapter’s describe and stop are the export lifecycle’s',
  'erasure-task dynamodb:DeleteItem':
    'an erasure deletes no item; the export store’s deletes are the lifecycle’s',
  'erasure-task dynamodb:Scan':
    'the export store reads the whole table once, for records from before the archive index: the reconciler’s sweep alone',
  'erasure-task s3:DeleteObject':
    'the eraser deletes each old version by its VersionId, which S3 authorizes as s3:DeleteObjectVersion (granted)',
  'erasure-task s3:ListObjectVersions':
    'S3 authorizes ListObjectVersions as s3:ListBucketVersions (granted, under the archive’s prefixes)',
  'erasure-task s3:PutObjectTagging':
    'lib-storage tags an upload only when given tags; the archive writer gives none',
};

/** Grants no bundle sends, each with its reason. */
const NOT_SENT: Record<string, string> = {
  '* logs:CreateLogStream': 'Lambda writes the function’s logs with its role',
  '* logs:PutLogEvents': 'Lambda writes the function’s logs with its role',
  '* xray:PutTraceSegments': 'active tracing: Lambda sends the traces',
  '* xray:PutTelemetryRecords': 'active tracing: Lambda sends the telemetry',
  'start sqs:*':
    'the dead-letter queue of scheduled starts: Lambda sends a failed asynchronous invocation there',
  'reconcile sqs:*': 'the dead-letter queue of the reconciler’s runs: Lambda sends a failed invocation there',
  '* kms:Decrypt':
    'the customer-managed keys: Secrets Manager (kms:ViaService) and S3 decrypt with the caller’s permission',
  'archive kms:GenerateDataKey':
    'the archive bucket’s key: S3 asks for a data key with the writer’s permission',
  'files s3:ListBucket':
    'never sent: with it S3 answers 404 rather than 403 for an archived file that is gone',
  'erasure-task kms:GenerateDataKey':
    'the archive bucket’s key: S3 asks for a data key with the writer’s permission',
  'erasure-task s3:DeleteObjectVersion':
    'sent as DeleteObject with a VersionId, which S3 authorizes as s3:DeleteObjectVersion',
  'erasure-task s3:ListBucketVersions':
    'sent as ListObjectVersions, which S3 authorizes as s3:ListBucketVersions',
  ...Object.fromEntries(
    ['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions', 's3:ListBucket'].map((action) => [
      `erasure-task ${action}`,
      'Athena sends it with the caller’s permissions while running the erasure’s row count',
    ]),
  ),
};

const EXCEPTIONS: GrantExceptions = { notGranted: NOT_GRANTED, notSent: NOT_SENT };

async function sendableByFunction(): Promise<Map<HandlerName, Set<string>>> {
  const sendable = new Map<HandlerName, Set<string>>();
  for (const handler of Object.values(HandlerNames)) {
    const { metafile } = await build({
      ...esbuildOptionsFor(FUNCTION_BUNDLING),
      entryPoints: [join(PROJECT_ROOT, handlerEntryPath(handler))],
      absWorkingDir: PROJECT_ROOT,
      outfile: join(PROJECT_ROOT, 'cdk.out', 'static-grants', handler, 'index.mjs'),
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    sendable.set(handler, new Set(sendableAwsOperations(metafile, PROJECT_ROOT).keys()));
  }
  return sendable;
}

function grantedByFunction(template: Template): ActionsByFunction {
  return new Map(
    Object.values(HandlerNames).map((handler) => [
      handler,
      new Set(actionsOf(statementsOfFunction(template, handler))),
    ]),
  );
}

/** A copy of the template in which `handler`'s role lacks `action`, as start lacked dynamodb:Query. */
function withoutGrant(template: Template, handler: HandlerName, action: string): Template {
  const json = structuredClone(template.toJSON()) as {
    Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
  };
  const [, fn] = functionOf(template, handler);
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
  for (const resource of Object.values(json.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const roles = resource.Properties.Roles as unknown[];
    if (!roles.some((role) => JSON.stringify(role) === JSON.stringify({ Ref: roleId }))) continue;
    const document = resource.Properties.PolicyDocument as { Statement: PolicyStatementJson[] };
    document.Statement = document.Statement.map((statement) => ({
      ...statement,
      Action: [statement.Action].flat().filter((granted) => granted !== action),
    })).filter((statement) => (statement.Action as string[]).length > 0);
  }
  return Template.fromJSON(json);
}

describe('the static grant check', () => {
  let template: Template;
  let sendable: Map<HandlerName, Set<string>>;

  beforeAll(async () => {
    template = synthesizeTestStack(EVERY_GRANT_CONFIG).template;
    sendable = await sendableByFunction();
  }, BUNDLES_TIMEOUT_MS);

  afterAll(() => {
    removeTestAssemblies();
  });

  it('finds every operation a bundle can send granted to its function, and every grant sent, but those listed with a reason', () => {
    // Act
    const findings = staticGrantFindings(sendable, grantedByFunction(template), EXCEPTIONS);

    // Assess
    expect(findings).toEqual([]);
    for (const handler of Object.values(HandlerNames))
      expect(sendable.get(handler)?.size, handler).toBeGreaterThan(0);
  });

  it('finds the Query grant start lacked, whatever scenario a run would have driven', () => {
    // Prepare: start's role as it was before a replayed start could read paged links.
    const before = withoutGrant(template, HandlerNames.START, 'dynamodb:Query');

    // Act
    const findings = staticGrantFindings(sendable, grantedByFunction(before), EXCEPTIONS);

    // Assess
    expect(findings).toEqual(['start can send dynamodb:Query, but its role is not granted it']);
  });

  it('finds a grant nothing sends', () => {
    // Prepare
    const granted = new Map(grantedByFunction(template));
    granted.set(
      HandlerNames.LIST,
      new Set([...(granted.get(HandlerNames.LIST) ?? []), 'dynamodb:DeleteTable']),
    );

    // Act
    const findings = staticGrantFindings(sendable, granted, EXCEPTIONS);

    // Assess
    expect(findings).toEqual(['list is granted dynamodb:DeleteTable, but its code never sends it']);
  });
});
