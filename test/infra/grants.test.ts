import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerNames } from '../../lib/http/routeTable';
import { ExportTableIndex } from '../../lib/store/tableDefinition';
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

/** What the handlers' own writes need on top of the brief's list; see the ExportFunctions grants. */
const RECORD_ACTIONS = ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
const FUNCTION_BASICS = [
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'xray:PutTelemetryRecords',
  'xray:PutTraceSegments',
];

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

    // Assess: no history query and no event: a start neither reads the spot's history nor ends an export.
    expect(actions).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'secretsmanager:GetSecretValue',
        'states:StartExecution',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
      ].sort(),
    );
  });

  it('lets check-status create and poll, reconcile (describe, restart and stop workflows) and publish events', () => {
    // Act
    const actions = actionsOf(statementsOfFunction(stack.template, HandlerNames.CHECK_STATUS));

    // Assess
    expect(actions).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'dynamodb:Query',
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

  it('lets abort update the record, read secrets, stop the workflow and publish events', () => {
    // Act
    const actions = actionsOf(statementsOfFunction(stack.template, HandlerNames.ABORT));

    // Assess
    expect(actions).toEqual(
      [
        ...FUNCTION_BASICS,
        ...RECORD_ACTIONS,
        'dynamodb:Query',
        'secretsmanager:GetSecretValue',
        'states:StopExecution',
        'events:PutEvents',
      ].sort(),
    );
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
    const secretResources = [HandlerNames.START, HandlerNames.CHECK_STATUS, HandlerNames.ABORT].flatMap(
      (handler) =>
        resourcesGranting(statementsOfFunction(stack.template, handler), 'secretsmanager:GetSecretValue'),
    );

    // Assess
    expect(secretResources).toHaveLength(3);
    for (const resource of secretResources)
      expect(resource).toMatch(/:secretsmanager:.*:secret:team-a\/openweb\/\*"\]\]\}$/);
  });

  it('names the state machine and its executions, not every state machine', () => {
    // Prepare
    const checkStatus = statementsOfFunction(stack.template, HandlerNames.CHECK_STATUS);
    const abort = statementsOfFunction(stack.template, HandlerNames.ABORT);

    // Act
    const started = resourcesGranting(checkStatus, 'states:StartExecution');
    const described = resourcesGranting(checkStatus, 'states:DescribeExecution');
    const stopped = resourcesGranting(abort, 'states:StopExecution');

    // Assess
    expect(started).toEqual([expect.stringMatching(/:stateMachine:OpenWebExports-ExportPolling"\]\]\}$/)]);
    expect(described).toEqual([expect.stringMatching(/:execution:OpenWebExports-ExportPolling:\*"\]\]\}$/)]);
    expect(stopped).toEqual(described);
    expect(resourcesGranting(checkStatus, 'states:StopExecution')).toEqual(described);
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
    expect(queried['check-status']).toContain(`/index/${ExportTableIndex.activeByLastPolled}`);
    expect(queried['check-status']).toContain(`/index/${ExportTableIndex.byStatus}`);
    expect(queried.list).toContain(`/index/${ExportTableIndex.byStatus}`);
    expect(queried.list).not.toContain(ExportTableIndex.activeByLastPolled);
    expect(queried.abort).not.toContain('/index/');
  });

  it('publishes only to the stack’s own event bus', () => {
    // Prepare
    const [busId] = Object.keys(stack.template.findResources('AWS::Events::EventBus'));

    // Act
    const busResources = [HandlerNames.CHECK_STATUS, HandlerNames.ABORT].flatMap((handler) =>
      resourcesGranting(statementsOfFunction(stack.template, handler), 'events:PutEvents'),
    );

    // Assess: the functions that end exports publish; start never ends one.
    expect(busResources).toEqual(Array(2).fill(JSON.stringify({ 'Fn::GetAtt': [busId, 'Arn'] })));
  });
});
