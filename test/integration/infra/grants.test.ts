import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerNames } from '../../../lib/http/routeTable';
import { ExportTableIndex } from '../../../lib/store/tableDefinition';
import { type Deployment, resolveValue } from '../../system/shipped/iamPolicy';
import {
  removeTestAssemblies,
  SCHEDULED_SPOT_CONFIG,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from './synthesizeTestStack';
import {
  actionsOf,
  type PolicyStatementJson,
  resourcesGranting,
  resourcesOfType,
  statementsOfFunction,
} from './templateQueries';

/** What the handlers' own writes need on top of the brief's list; see functions/registry.ts. */
const RECORD_ACTIONS = ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
const FUNCTION_BASICS = [
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'xray:PutTelemetryRecords',
  'xray:PutTraceSegments',
];

/** One instance of the stack, to read its grants' ARNs as IAM sees them. */
const ONE_DEPLOYMENT: Deployment = {
  partition: 'aws',
  region: 'eu-west-1',
  accountId: '123456789012',
  stackId:
    'arn:aws:cloudformation:eu-west-1:123456789012:stack/OpenWebExports/6f0b9a2e-1111-4c3d-9e8f-0123456789ab',
  ref: (logicalId) => logicalId,
  getAtt: (logicalId) => logicalId,
};

let stack: SynthesizedTestStack;

beforeAll(() => {
  stack = synthesizeTestStack({ ...SCHEDULED_SPOT_CONFIG, secretNamePrefix: 'team-a/openweb/' });
});

afterAll(() => {
  removeTestAssemblies();
});

function allStatements(): PolicyStatementJson[] {
  return resourcesOfType(stack.template, 'AWS::IAM::Policy').flatMap(
    ([, policy]) => (policy.Properties.PolicyDocument as { Statement: PolicyStatementJson[] }).Statement,
  );
}

describe('function grants', () => {
  it('never grants a wildcard action anywhere in the stack', () => {
    // Act
    const actions = actionsOf(allStatements());

    // Assess
    expect(actions.length).toBeGreaterThan(10);
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });

  it('lets start record exports, read secrets, start workflows and dead-letter failed schedules, nothing more', () => {
    // Act
    const actions = actionsOf(statementsOfFunction(stack.template, HandlerNames.START));

    // Assess: no event: a start never ends an export. Query reads the paged links of the export a
    // replayed start answers with, or of a finished lock holder.
    expect(actions).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'dynamodb:Query',
        'secretsmanager:GetSecretValue',
        'states:StartExecution',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
      ].sort(),
    );
  });

  it("lets check-status poll a stale export, record its end, publish it and start the spot's next queued export", () => {
    // Act
    const actions = actionsOf(statementsOfFunction(stack.template, HandlerNames.CHECK_STATUS));

    // Assess
    expect(actions).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'dynamodb:Query',
        'secretsmanager:GetSecretValue',
        'states:StartExecution',
        'events:PutEvents',
      ].sort(),
    );
  });

  it("lets workflow-task create, poll and abort, stop a workflow an abort met, publish events and start the spot's next queued export", () => {
    // Act
    const actions = actionsOf(statementsOfFunction(stack.template, HandlerNames.WORKFLOW_TASK));

    // Assess
    expect(actions).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'dynamodb:Query',
        'secretsmanager:GetSecretValue',
        'states:StartExecution',
        'states:StopExecution',
        'events:PutEvents',
      ].sort(),
    );
  });

  it('lets reconcile repair: describe, restart and stop workflows, poll and abort, publish events, index older archives once', () => {
    // Act
    const actions = actionsOf(statementsOfFunction(stack.template, HandlerNames.RECONCILE));

    // Assess: Scan finds, once, the COMPLETED exports recorded before the reconciler's index held archives.
    expect(actions).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'dynamodb:Query',
        'dynamodb:Scan',
        'secretsmanager:GetSecretValue',
        'states:DescribeExecution',
        'states:StartExecution',
        'states:StopExecution',
        'events:PutEvents',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
      ].sort(),
    );
  });

  it("lets abort update the record, read secrets, stop the workflow, publish events and start the spot's next queued export", () => {
    // Act
    const actions = actionsOf(statementsOfFunction(stack.template, HandlerNames.ABORT));

    // Assess
    expect(actions).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'dynamodb:Query',
        'secretsmanager:GetSecretValue',
        'states:StartExecution',
        'states:StopExecution',
        'events:PutEvents',
      ].sort(),
    );
  });

  it('lets backfills record plans and windows, read secrets, start and stop workflows and publish the ends of the exports it aborts', () => {
    // Act
    const statements = statementsOfFunction(stack.template, HandlerNames.BACKFILLS);

    // Assess: the same as abort (it queues windows and aborts exports), and no reconciler index, Scan or S3.
    expect(actionsOf(statements)).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'dynamodb:Query',
        'secretsmanager:GetSecretValue',
        'states:StartExecution',
        'states:StopExecution',
        'events:PutEvents',
      ].sort(),
    );
    expect(resourcesGranting(statements, 'dynamodb:Query').join(' ')).not.toContain(
      ExportTableIndex.activeByLastPolled,
    );
  });

  it('lets erasures read and put records in the table and start the erasure workflow only: no index, no bucket, no secrets', () => {
    // Act
    const statements = statementsOfFunction(stack.template, HandlerNames.ERASURES);

    // Assess
    expect(actionsOf(statements)).toEqual(
      [
        ...FUNCTION_BASICS,
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'states:StartExecution',
      ].sort(),
    );
    expect(resourcesGranting(statements, 'dynamodb:Query').join(' ')).not.toContain('/index/');
    expect(
      resourcesGranting(statements, 'states:StartExecution').map((resource) =>
        resolveValue(JSON.parse(resource), ONE_DEPLOYMENT),
      ),
    ).toEqual(['arn:aws:states:eu-west-1:123456789012:stateMachine:OpenWebExports-ExportErasure-6f0b9a2e']);
  });

  it('lets erasure-task use its records, rewrite and delete object versions under the archive’s prefixes, count the user’s rows left in the table with Athena and publish, nothing more', () => {
    // Act
    const statements = statementsOfFunction(stack.template, HandlerNames.ERASURE_TASK);
    const resolved = (action: string) =>
      resourcesGranting(statements, action).map((resource) =>
        resolveValue(JSON.parse(resource), ONE_DEPLOYMENT),
      );

    // Assess
    expect(actionsOf(statements)).toEqual(
      [
        ...FUNCTION_BASICS,
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:Query',
        'events:PutEvents',
        's3:GetObject',
        's3:PutObject',
        's3:AbortMultipartUpload',
        's3:DeleteObjectVersion',
        's3:ListBucketVersions',
        'athena:StartQueryExecution',
        'athena:GetQueryExecution',
        'athena:GetQueryResults',
        'athena:StopQueryExecution',
        'glue:GetDatabase',
        'glue:GetTable',
        'glue:GetPartitions',
        's3:ListBucket',
      ].sort(),
    );
    // The archived files, the table's files (Athena's read) and the workgroup's results.
    expect(resolved('s3:GetObject').map((arn) => arn.slice(arn.lastIndexOf(':::') + 3))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/exports\/\*$/),
        expect.stringMatching(/\/tables\/comments\/\*$/),
        expect.stringMatching(/\/athena-results\/\*$/),
      ]),
    );
    for (const action of ['athena:StartQueryExecution', 'athena:GetQueryResults']) {
      expect(resolved(action), action).toEqual([
        expect.stringMatching(/:athena:[^:]+:\d{12}:workgroup\/[^/*]+$/),
      ]);
    }
    // The database alone for GetDatabase; the comment rows table (and its database) for the rest.
    expect(resolved('glue:GetDatabase').some((arn) => arn.includes(':table/'))).toBe(false);
    for (const action of ['glue:GetTable', 'glue:GetPartitions']) {
      expect(
        resolved(action).some((arn) => arn.endsWith('/comment_rows')),
        action,
      ).toBe(true);
    }
    for (const action of ['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions']) {
      expect(
        resolved(action).some((arn) => arn.includes('*')),
        action,
      ).toBe(false);
    }
    const tableListing = statements.find((statement) => actionsOf([statement]).includes('s3:ListBucket')) as
      | { Condition?: unknown }
      | undefined;
    expect(tableListing?.Condition).toEqual({
      StringLike: { 's3:prefix': ['tables/comments/*', 'athena-results/*'] },
    });
    for (const action of ['s3:PutObject', 's3:DeleteObjectVersion']) {
      expect(resolved(action).join(' '), action).toMatch(
        /\/exports\/\*.*\/tables\/\*|\/tables\/\*.*\/exports\/\*/,
      );
    }
    const listing = statements.find((statement) =>
      actionsOf([statement]).includes('s3:ListBucketVersions'),
    ) as { Condition?: unknown } | undefined;
    expect(listing?.Condition).toEqual({ StringLike: { 's3:prefix': ['exports/*', 'tables/*'] } });
    expect(actionsOf(statements).some((action) => /^(secretsmanager|states):/.test(action))).toBe(false);
  });

  it('lets list only read the table: no secrets, no workflows, no events, no writes', () => {
    // Act
    const actions = actionsOf(statementsOfFunction(stack.template, HandlerNames.LIST));

    // Assess
    expect(actions).toEqual([...FUNCTION_BASICS, 'dynamodb:Query'].sort());
    expect(actions.some((action) => /^(secretsmanager|states|events|sqs):/.test(action))).toBe(false);
  });

  it('limits secrets to the configured prefix', () => {
    // Act
    const secretResources = [
      HandlerNames.START,
      HandlerNames.CHECK_STATUS,
      HandlerNames.WORKFLOW_TASK,
      HandlerNames.RECONCILE,
      HandlerNames.ABORT,
      HandlerNames.BACKFILLS,
    ].flatMap((handler) =>
      resourcesGranting(statementsOfFunction(stack.template, handler), 'secretsmanager:GetSecretValue'),
    );

    // Assess
    expect(secretResources).toHaveLength(6);
    for (const resource of secretResources)
      expect(resource).toMatch(/:secretsmanager:.*:secret:team-a\/openweb\/\*"\]\]\}$/);
  });

  it('names the state machine and its executions, not every state machine', () => {
    // Prepare
    const reconcile = statementsOfFunction(stack.template, HandlerNames.RECONCILE);
    const abort = statementsOfFunction(stack.template, HandlerNames.ABORT);

    // Act
    const started = resourcesGranting(reconcile, 'states:StartExecution');
    const described = resourcesGranting(reconcile, 'states:DescribeExecution');
    const stopped = resourcesGranting(abort, 'states:StopExecution');

    // Assess
    const resolved = (resources: string[]) =>
      resources.map((resource) => resolveValue(JSON.parse(resource), ONE_DEPLOYMENT));
    // The reconciler also starts the erasure workflow, for erasures whose run lapsed.
    expect(resolved(started).sort()).toEqual([
      'arn:aws:states:eu-west-1:123456789012:stateMachine:OpenWebExports-ExportErasure-6f0b9a2e',
      'arn:aws:states:eu-west-1:123456789012:stateMachine:OpenWebExports-ExportPolling-6f0b9a2e',
    ]);
    expect(resolved(described)).toEqual([
      'arn:aws:states:eu-west-1:123456789012:execution:OpenWebExports-ExportPolling-6f0b9a2e:*',
    ]);
    expect(stopped).toEqual(described);
    expect(resourcesGranting(reconcile, 'states:StopExecution')).toEqual(described);
  });

  it('names the indexes each function queries instead of granting index/*', () => {
    // Act
    const queried = Object.fromEntries(
      Object.values(HandlerNames).map((handler) => [
        handler,
        resourcesGranting(statementsOfFunction(stack.template, handler), 'dynamodb:Query').join(' '),
      ]),
    );

    // Assess
    expect(Object.values(queried).join(' ')).not.toContain('index/*');
    // Only the reconciler sweeps its index; every function that ends an export reads the spot's queue.
    expect(queried.reconcile).toContain(`/index/${ExportTableIndex.activeByLastPolled}`);
    for (const handler of [
      HandlerNames.START,
      HandlerNames.CHECK_STATUS,
      HandlerNames.WORKFLOW_TASK,
      HandlerNames.RECONCILE,
      HandlerNames.ABORT,
      HandlerNames.LIST,
    ])
      expect(queried[handler]).toContain(`/index/${ExportTableIndex.byStatus}`);
    for (const handler of [
      HandlerNames.START,
      HandlerNames.CHECK_STATUS,
      HandlerNames.WORKFLOW_TASK,
      HandlerNames.ABORT,
      HandlerNames.LIST,
    ])
      expect(queried[handler]).not.toContain(ExportTableIndex.activeByLastPolled);
  });

  it('publishes only to the stack’s own event bus', () => {
    // Prepare
    const [busId] = Object.keys(stack.template.findResources('AWS::Events::EventBus'));

    // Act
    const enders = [
      HandlerNames.CHECK_STATUS,
      HandlerNames.WORKFLOW_TASK,
      HandlerNames.RECONCILE,
      HandlerNames.ABORT,
    ];
    const busResources = enders.flatMap((handler) =>
      resourcesGranting(statementsOfFunction(stack.template, handler), 'events:PutEvents'),
    );

    // Assess: the functions that end exports publish; start never ends one.
    expect(busResources).toEqual(Array(enders.length).fill(JSON.stringify({ 'Fn::GetAtt': [busId, 'Arn'] })));
  });

  it("lets coverage only query the table itself: the spot's windows and watermarks, no index, nothing else", () => {
    // Act
    const statements = statementsOfFunction(stack.template, HandlerNames.COVERAGE);
    const queried = resourcesGranting(statements, 'dynamodb:Query');

    // Assess
    expect(actionsOf(statements)).toEqual([...FUNCTION_BASICS, 'dynamodb:Query'].sort());
    expect(queried).toHaveLength(1);
    expect(queried[0]).toMatch(/ExportTable[0-9A-F]{8}/);
    expect(queried.join(' ')).not.toContain('/index/');
  });
});
