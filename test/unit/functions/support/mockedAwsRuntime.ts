import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import {
  DescribeExecutionCommand,
  ExecutionDoesNotExist,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type AwsClientStub, mockClient } from 'aws-sdk-client-mock';
import { makeStartHandler } from '../../../../functions/start';
import { makeWorkflowTaskHandler } from '../../../../functions/workflow-task';
import { type Config, loadConfig } from '../../../../lib/config';
import type { ExportDependencies } from '../../../../lib/exports/ExportDependencies';
import type { AwsClients } from '../../../../lib/runtime/AwsClients';
import { type HandlerRuntime, handlerRuntimeFor } from '../../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../../local/InMemoryExportMetrics';
import {
  DEMO_SPOTS,
  type OpenWebSimulator,
  startOpenWebSimulator,
} from '../../../../local/openweb-simulator/index';
import { apiRequests, lambdaContext, parseResponse, silentLogger } from '../../../support/apiGatewayEvents';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';
import { lifecycleDependencies } from '../../../support/lifecycleDependencies';

export const STATE_MACHINE_ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:ExportPolling';
export const EXECUTION_ARN_PREFIX = 'arn:aws:states:eu-west-1:123456789012:execution:ExportPolling:';
export const SECRET_NAME_PREFIX = 'openweb-exports/spots/';
export const EVENT_BUS_NAME = 'exports-bus';
export const SPOT = 'sp_demo';
export const OTHER_SPOT = 'sp_other';
/** A spot with a well-formed id but no secret. */
export const UNCONFIGURED_SPOT = 'sp_nobody';

/** A clock the simulator and the use cases share; it moves only when a test moves it. */
export class TestClock {
  nowMs = Date.parse('2026-11-01T12:00:00Z');
  readonly now = (): number => this.nowMs;

  advance(ms: number): void {
    this.nowMs += ms;
  }
}

export interface MockedAwsRuntime {
  runtime: HandlerRuntime;
  dependencies: ExportDependencies;
  clock: TestClock;
  simulator: OpenWebSimulator;
  metrics: InMemoryExportMetrics;
  tableName: string;
  config: Config;
  /** The mocked clients, to build another container's dependencies on the same mocks. */
  clients: Partial<AwsClients>;
  dynamoDb: AwsClientStub<DynamoDBDocumentClient>;
  stepFunctions: AwsClientStub<SFNClient>;
  eventBridge: AwsClientStub<EventBridgeClient>;
  secretsManager: AwsClientStub<SecretsManagerClient>;
  /** The `detail` of every event put on the bus, parsed, with its detail-type. */
  publishedEvents(): { detailType: string; detail: Record<string, unknown> }[];
  close(): Promise<void>;
}

/**
 * The real AWS adapters (`buildDependencies` with `LIFECYCLE_ADAPTERS`) with every AWS client
 * mocked by aws-sdk-client-mock. DynamoDB calls are forwarded to an in-process
 * dynalite so the store behaves for real while each command stays inspectable; the
 * upstream is the OpenWeb simulator over HTTP.
 */
export async function startMockedAwsRuntime(): Promise<MockedAwsRuntime> {
  const clock = new TestClock();
  const simulator = await startOpenWebSimulator({ now: clock.now, authRequestsPerSecond: 0 });
  const table: DynaliteTable = await startDynaliteTable();
  const awsDocumentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
  const dynamoDb = mockClient(awsDocumentClient);
  for (const Command of [
    GetCommand,
    PutCommand,
    UpdateCommand,
    DeleteCommand,
    QueryCommand,
    ScanCommand,
  ] as const) {
    // biome-ignore lint/suspicious/noExplicitAny: each command class is forwarded with its own input type
    dynamoDb.on(Command as any).callsFake((input) => table.documentClient.send(new (Command as any)(input)));
  }
  const stepFunctionsClient = new SFNClient({ region: 'eu-west-1' });
  const stepFunctions = mockClient(stepFunctionsClient);
  stepFunctions
    .on(StartExecutionCommand)
    .callsFake((input) => ({ executionArn: `${EXECUTION_ARN_PREFIX}${input.name}`, startDate: new Date() }));
  stepFunctions.on(StopExecutionCommand).resolves({ stopDate: new Date() });
  stepFunctions
    .on(DescribeExecutionCommand)
    .rejects(new ExecutionDoesNotExist({ message: 'no such execution', $metadata: {} }));
  const eventBridgeClient = new EventBridgeClient({ region: 'eu-west-1' });
  const eventBridge = mockClient(eventBridgeClient);
  eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: randomUUID() }] });
  const secretsManagerClient = new SecretsManagerClient({ region: 'eu-west-1' });
  const secretsManager = mockClient(secretsManagerClient);
  secretsManager.on(GetSecretValueCommand).callsFake((input) => {
    const spotId = String(input.SecretId).slice(SECRET_NAME_PREFIX.length);
    const spot = DEMO_SPOTS[spotId];
    if (spot === undefined) throw new ResourceNotFoundException({ message: 'not found', $metadata: {} });
    return { SecretString: JSON.stringify({ spotId, apiKey: spot.apiKey }) };
  });

  const config = loadConfig({
    TABLE_NAME: table.tableName,
    STATE_MACHINE_ARN,
    EVENT_BUS_NAME,
    SECRET_NAME_PREFIX,
    OPENWEB_AUTH_BASE_URL: simulator.authBaseUrl,
    OPENWEB_EXPORT_BASE_URL: simulator.exportBaseUrl,
    UPSTREAM_RETRY_BUDGET_MS: '100',
    // The simulator here has no auth limit and the test clock stands still: pacing would only defer.
    UPSTREAM_AUTH_REQUESTS_PER_SECOND: '1000',
  });
  const metrics = new InMemoryExportMetrics();
  const clients: Partial<AwsClients> = {
    documentClient: awsDocumentClient,
    stepFunctions: stepFunctionsClient,
    eventBridge: eventBridgeClient,
    secretsManager: secretsManagerClient,
  };
  const dependencies = lifecycleDependencies(config, { clients, metrics, now: clock.now });
  return {
    runtime: handlerRuntimeFor(dependencies, { logger: silentLogger() }),
    dependencies,
    clock,
    simulator,
    metrics,
    tableName: table.tableName,
    config,
    clients,
    dynamoDb,
    stepFunctions,
    eventBridge,
    secretsManager,
    publishedEvents: () =>
      eventBridge.commandCalls(PutEventsCommand).flatMap((call) =>
        (call.args[0].input.Entries ?? []).map((entry) => ({
          detailType: entry.DetailType ?? '',
          detail: JSON.parse(entry.Detail ?? '{}') as Record<string, unknown>,
        })),
      ),
    close: async () => {
      dynamoDb.restore();
      stepFunctions.restore();
      eventBridge.restore();
      secretsManager.restore();
      await simulator.close();
      await table.close();
    },
  };
}

export const DATE_RANGE = { from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' };

/** The workflow's create task event for an export, with a deadline far ahead of the test clock. */
export function createTaskEvent(spotId: string, exportId: string, deadline = '2026-11-02T12:00:00.000Z') {
  return { action: 'create', spotId, exportId, deadline };
}

/** An export started over the API and created upstream by the workflow's create task, as a deployment runs it: PROCESSING. */
export async function startAndCreateThroughHandlers(aws: MockedAwsRuntime, spotId = SPOT): Promise<string> {
  const started = await makeStartHandler(aws.runtime)(apiRequests.start(spotId, DATE_RANGE), lambdaContext());
  const exportId = parseResponse(started).body.exportId as string;
  await makeWorkflowTaskHandler(aws.runtime)(createTaskEvent(spotId, exportId), lambdaContext());
  return exportId;
}

/** Finishes the spot's (first) upstream export as the upstream would. */
export function finishUpstreamExport(
  aws: MockedAwsRuntime,
  outcome: 'completed' | 'failed' = 'completed',
  spotId = SPOT,
): void {
  aws.simulator.finishExport(aws.simulator.listExports(spotId)[0]?.id ?? '', outcome);
}
