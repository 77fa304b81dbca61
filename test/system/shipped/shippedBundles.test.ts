import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeStackTemplate } from '../../../infra/synthesizeStackTemplate';
import { type HandlerName, HandlerNames } from '../../../lib/http/routeTable';
import { ensureTable, type LocalDynamoDb, startLocalDynamoDb } from '../../../local/localDynamoDb';
import { type OpenWebSimulator, startOpenWebSimulator } from '../../../local/openweb-simulator/index';
import { SCHEDULED_SPOT_CONFIG } from '../../integration/infra/synthesizeTestStack';
import { functionOf, statementsOfFunction } from '../../integration/infra/templateQueries';
import { apiEvent, apiRequests } from '../../support/apiGatewayEvents';
import { buildFunctionBundle } from '../../support/functionBundle';
import { type AwsAccount, AwsStandIns, type ObservedCall } from './awsStandIns';
import { BundleProcess, type Invocation, writeRunner } from './bundleProcess';
import {
  type Deployment,
  type Grant,
  grantCovers,
  grantsOf,
  iamPatternMatches,
  resolveValue,
} from './iamPolicy';
import { templateDeployment } from './templateDeployment';

/**
 * The functions as shipped: each bundle built as the stack builds it, loaded by plain Node.js
 * in its own process outside the project, configured by the environment the template gives it,
 * and invoked with every kind of event it accepts. AWS is played by local stand-ins that record
 * each call; every call must be granted to the calling function's role in the synthesized
 * template, and every grant must be used or be on the allow-list below.
 */

const ACCOUNT: AwsAccount = { partition: 'aws', region: 'eu-west-1', accountId: '123456789012' };
const PHYSICAL_NAMES = {
  tableName: 'OpenWebExports-ExportTable-SHIPPED',
  bucketName: 'openweb-exports-archive-shipped',
  stackUuid: '5c8e1f0a-3b2d-4e6f-9a1b-0c2d3e4f5a6b',
};
const SETUP_TIMEOUT_MS = 180_000;
const SCENARIO_TIMEOUT_MS = 240_000;
/** Upstream exports take this long unless the test finishes them, so each stays PROCESSING until told. */
const UPSTREAM_EXPORT_MS = 60 * 60_000;
/** The reconciler's container runs this much later than the others, so the exports it sweeps are stale. */
const RECONCILER_CLOCK_OFFSET_MS = 2 * 60 * 60_000;
const SCHEDULED_TIME_PLACEHOLDER = '<aws.scheduler.scheduled-time>';

/**
 * Grants this run does not use, each with the reason; any other unused grant fails the test, and so
 * does an entry here that no longer matches one. Matched as IAM patterns against
 * `<handler> <action> <resource ARN>`.
 */
const UNUSED_GRANTS: Record<string, string> = {
  // Lambda writes the function's logs and traces with its role; the code never calls them.
  '* logs:CreateLogStream *': 'Lambda writes the logs',
  '* logs:PutLogEvents *': 'Lambda writes the logs',
  '* xray:PutTraceSegments *': 'active tracing, sent by Lambda',
  '* xray:PutTelemetryRecords *': 'active tracing, sent by Lambda',
  // Lambda sends a failed asynchronous invocation (a schedule's) to its destination with the function's role.
  'start sqs:* *ExportScheduleDeadLetterQueue*': 'failure destination of scheduled starts, used by Lambda',
  'reconcile sqs:* *ReconcilerDeadLetterQueue*': 'failure destination of reconciler runs, used by Lambda',
  // Paths this run does not take.
  'start dynamodb:DeleteItem *:table/*': 'drops the idempotency record and spot lock of a start that failed',
  'abort dynamodb:Query *:table/*': 'an abort of an export whose create answer was lost looks for it',
  'archive s3:AbortMultipartUpload *': 'a failed multipart upload (a file over the 5 MiB part size)',
  'erasure-task s3:AbortMultipartUpload *':
    'a failed multipart upload of a rewritten file (over the 5 MiB part size)',
  'erasure-task athena:StopQueryExecution *': 'stops a row count still running when its wait ends',
  // Athena reads the table's files and writes and reads its results with the caller's permissions;
  // the stand-in runs no query, so no S3 call is made for it.
  'erasure-task s3:GetObject *tables/comments/*':
    "Athena's read of the table's files, with the caller's permissions",
  'erasure-task s3:GetObject *athena-results/*': "Athena's read of its result, with the caller's permissions",
  'erasure-task s3:PutObject *athena-results/*':
    "Athena's write of its result, with the caller's permissions",
  'erasure-task s3:AbortMultipartUpload *athena-results/*':
    "Athena's write of its result, with the caller's permissions",
  'erasure-task s3:ListBucket *': "Athena's listing of the table's partitions, with the caller's permissions",
  'files s3:ListBucket *':
    'never sent: S3 then answers 404 rather than 403 for an archived file that is gone',
  // The functions share the upstream token through the table; one signs in only when none is shared.
  'check-status secretsmanager:GetSecretValue *': 'signs in when no token is shared yet (or it expired)',
  'reconcile secretsmanager:GetSecretValue *': 'signs in when no token is shared yet (or it expired)',
  'workflow-task states:StopExecution *':
    'an abort that met the create in flight is sent by the create task, which stops the aborted workflow',
};

interface FunctionUnderTest {
  handler: HandlerName;
  process: BundleProcess;
  accessKeyId: string;
}

let workDir: string;
let template: Template;
let deployment: Deployment;
let dynamoDb: LocalDynamoDb;
let standIns: AwsStandIns;
let simulator: OpenWebSimulator;
const functions = new Map<HandlerName, FunctionUnderTest>();
let reconciler: FunctionUnderTest;

const SPOTS = {
  completed: 'sp_demo',
  aborted: 'sp_other',
  timedOut: 'sp_timeout',
  archiveFailed: 'sp_archive_failed',
  stale: 'sp_stale',
  backfill: 'sp_backfill',
} as const;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'shipped-bundles-'));
  const runner = await writeRunner(workDir);
  const [json] = await Promise.all([
    Promise.resolve().then(() => synthesizeStackTemplate(SCHEDULED_SPOT_CONFIG)),
    ...Object.values(HandlerNames).map((handler) => buildFunctionBundle(handler, join(workDir, handler))),
  ]);
  template = Template.fromJSON(json as unknown as Record<string, unknown>);
  deployment = templateDeployment(json, ACCOUNT, PHYSICAL_NAMES);

  dynamoDb = await startLocalDynamoDb();
  const tableClient = new DynamoDBClient({
    endpoint: dynamoDb.endpoint,
    region: ACCOUNT.region,
    credentials: { accessKeyId: 'setup', secretAccessKey: 'setup' },
  });
  await ensureTable(tableClient, PHYSICAL_NAMES.tableName);
  tableClient.destroy();
  standIns = new AwsStandIns(ACCOUNT);
  await standIns.start(dynamoDb.endpoint);

  const spots = [...Object.values(SPOTS), ...scheduledSpots()];
  simulator = await startOpenWebSimulator({
    authRequestsPerSecond: 0,
    downloadLinkChars: MAX_LINK_CHARS,
    ...SIMULATED_COMMENTS,
    exportDurationMs: () => UPSTREAM_EXPORT_MS,
    spots: Object.fromEntries(spots.map((spotId) => [spotId, { apiKey: `key-${spotId}` }])),
  });

  // One secret per spot, named as the functions' SECRET_NAME_PREFIX says.
  const secretNamePrefix = functionEnvironment(HandlerNames.START).SECRET_NAME_PREFIX;
  for (const spotId of spots)
    standIns.putSecret(`${secretNamePrefix}${spotId}`, JSON.stringify({ spotId, apiKey: `key-${spotId}` }));
  for (const handler of Object.values(HandlerNames)) functions.set(handler, startFunction(runner, handler));
  reconciler = startFunction(runner, HandlerNames.RECONCILE, RECONCILER_CLOCK_OFFSET_MS);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([...functions.values(), reconciler].map((fn) => fn?.process.stop()));
  await simulator?.close();
  await standIns?.close();
  await dynamoDb?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** The spots the template schedules exports for, from the schedules' own input. */
function scheduledSpots(): string[] {
  return scheduleInputsTo(HandlerNames.START).map((input) => String(JSON.parse(input).spotId));
}

/** The `Input` of each EventBridge Scheduler schedule that invokes `handler`'s function. */
function scheduleInputsTo(handler: HandlerName): string[] {
  const [logicalId] = functionOf(template, handler);
  return Object.values(template.findResources('AWS::Scheduler::Schedule'))
    .map(
      (schedule) =>
        (schedule as { Properties: { Target: { Arn: unknown; Input: string } } }).Properties.Target,
    )
    .filter((target) => JSON.stringify(target.Arn) === JSON.stringify({ 'Fn::GetAtt': [logicalId, 'Arn'] }))
    .map((target) => target.Input);
}

/** The function's environment as the template sets it, resolved, with the upstream pointed at the simulator. */
function functionEnvironment(handler: HandlerName): Record<string, string> {
  const [, fn] = functionOf(template, handler);
  const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  const environment = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, resolveValue(value, deployment)]),
  );
  if (environment.OPENWEB_AUTH_BASE_URL !== undefined)
    environment.OPENWEB_AUTH_BASE_URL = simulator.authBaseUrl;
  if (environment.OPENWEB_EXPORT_BASE_URL !== undefined)
    environment.OPENWEB_EXPORT_BASE_URL = simulator.exportBaseUrl;
  // The bucket's virtual-hosted URL, served path-style by the stand-in (where AWS_ENDPOINT_URL_S3
  // sends the SDK's S3 calls).
  if (environment.ARCHIVE_BUCKET_URL !== undefined) {
    const bucketName = new URL(environment.ARCHIVE_BUCKET_URL).hostname.split('.s3.')[0];
    environment.ARCHIVE_BUCKET_URL = `${standIns.s3Endpoint}/${bucketName}`;
  }
  return environment;
}

function startFunction(runner: string, handler: HandlerName, clockOffsetMs = 0): FunctionUnderTest {
  const [logicalId, fn] = functionOf(template, handler);
  // The access key tells the stand-ins which function's role signed a call, as IAM would see it.
  const accessKeyId = `ASIA-${handler}`;
  const home = join(workDir, `${handler}-home`);
  mkdirSync(home, { recursive: true });
  const process = new BundleProcess({
    runner,
    bundleFile: join(workDir, handler, 'index.mjs'),
    functionName: logicalId,
    cwd: join(workDir, handler),
    timeoutSeconds: Number(fn.Properties.Timeout),
    clockOffsetMs,
    environment: {
      ...functionEnvironment(handler),
      AWS_REGION: ACCOUNT.region,
      AWS_DEFAULT_REGION: ACCOUNT.region,
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: 'shipped-bundle-check',
      AWS_SESSION_TOKEN: 'shipped-bundle-check',
      AWS_LAMBDA_FUNCTION_NAME: logicalId,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.Properties.MemorySize),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_EXECUTION_ENV: `AWS_Lambda_${String(fn.Properties.Runtime)}`,
      TZ: 'UTC',
      // No shared AWS config of the machine running the check.
      HOME: home,
      AWS_CONFIG_FILE: join(home, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      AWS_ENDPOINT_URL_DYNAMODB: standIns.dynamoDbEndpoint,
      AWS_ENDPOINT_URL_SFN: standIns.jsonEndpoint,
      AWS_ENDPOINT_URL_EVENTBRIDGE: standIns.jsonEndpoint,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: standIns.jsonEndpoint,
      AWS_ENDPOINT_URL_GLUE: standIns.jsonEndpoint,
      AWS_ENDPOINT_URL_ATHENA: standIns.jsonEndpoint,
      AWS_ENDPOINT_URL_S3: standIns.s3Endpoint,
    },
  });
  return { handler, process, accessKeyId };
}

async function invoke(handler: HandlerName, event: unknown): Promise<Invocation> {
  return (functions.get(handler) as FunctionUnderTest).process.invoke(event);
}

/** The handler's result; a thrown error fails the test with the function's output. */
async function succeed(handler: HandlerName, event: unknown): Promise<Record<string, unknown>> {
  const invocation = await invoke(handler, event);
  if (invocation.error !== undefined) {
    const output = (functions.get(handler) as FunctionUnderTest).process.output;
    throw new Error(`${handler} threw ${JSON.stringify(invocation.error)}\n${output.slice(-4000)}`);
  }
  return invocation.result as Record<string, unknown>;
}

interface ApiAnswer {
  statusCode: number;
  body: Record<string, unknown>;
}

async function api(handler: HandlerName, event: unknown): Promise<ApiAnswer> {
  const result = (await succeed(handler, event)) as { statusCode: number; body?: string };
  return {
    statusCode: result.statusCode,
    body: JSON.parse(result.body ?? 'null') as Record<string, unknown>,
  };
}

const requests = {
  ...apiRequests,
  requestErasure: (spotId: string, userId: string) =>
    apiEvent({
      method: 'POST',
      route: '/spots/{spotId}/erasures',
      pathParameters: { spotId },
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId }),
    }),
  readErasure: (spotId: string, erasureId: string) =>
    apiEvent({ route: '/spots/{spotId}/erasures/{erasureId}', pathParameters: { spotId, erasureId } }),
  listErasures: (spotId: string) =>
    apiEvent({ route: '/spots/{spotId}/erasures', pathParameters: { spotId } }),
  /** With an Idempotency-Key, so a repeated request is answered with the same export. */
  start: (spotId: string, idempotencyKey = `key-${spotId}`) =>
    apiRequests.start(spotId, EXPORT_WINDOW, { 'idempotency-key': idempotencyKey }),
  /** A start that waits in the spot's queue while the spot is busy. */
  queued: (spotId: string) =>
    apiRequests.start(
      spotId,
      { ...EXPORT_WINDOW, whenBusy: 'queue' },
      { 'idempotency-key': `queued-${spotId}` },
    ),
};

/** Queues an export behind the spot's running one: the function that ends the running one starts it. */
async function queueBehind(spotId: string): Promise<string> {
  const queued = await api(HandlerNames.START, requests.queued(spotId));
  expect(queued).toMatchObject({ statusCode: 202, body: { status: 'QUEUED', queue: { position: 1 } } });
  return String(queued.body.exportId);
}

async function statusOf(spotId: string, exportId: string): Promise<string | undefined> {
  const listed = await api(HandlerNames.LIST, requests.list(spotId));
  const items = listed.body.items as { exportId: string; status: string }[];
  return items.find((item) => item.exportId === exportId)?.status;
}

const HOUR_MS = 3_600_000;
/** The last whole day up to the hour, fixed once: a replayed request must be the same request. */
/**
 * The simulator's comments of the day (commentsPerHour for each of its 24 hours, none deleted) in
 * files of 10 with links of the upstream's maximal length: a link set too big for the export's
 * item, so every function that reads a record reads its link pages.
 */
const SIMULATED_COMMENTS = { commentsPerHour: 10, deleteShare: 0 };
const EXPORT_WINDOW = { from: wholeHour(-24), until: wholeHour(0), maxRecordsInFile: 10 };
const EXPORT_FILES = Math.ceil((SIMULATED_COMMENTS.commentsPerHour * 24) / EXPORT_WINDOW.maxRecordsInFile);
const MAX_LINK_CHARS = 4096;

function wholeHour(offsetHours: number): string {
  return new Date((Math.floor(Date.now() / HOUR_MS) + offsetHours) * HOUR_MS)
    .toISOString()
    .replace('.000Z', 'Z');
}

const deadline = () => new Date(Date.now() + 6 * HOUR_MS).toISOString();

/** An export started over the API and created upstream by the workflow's create task: PROCESSING. */
async function startAndCreate(spotId: string): Promise<string> {
  const started = await api(HandlerNames.START, requests.start(spotId));
  expect(started.statusCode).toBe(202);
  const exportId = String(started.body.exportId);
  await succeed(HandlerNames.WORKFLOW_TASK, { action: 'create', spotId, exportId, deadline: deadline() });
  return exportId;
}

function upstreamIdOf(spotId: string): string {
  const [upstream] = simulator.listExports(spotId);
  if (upstream === undefined) throw new Error(`no upstream export for ${spotId}`);
  return upstream.id;
}

describe('the shipped function bundles, against local stand-ins of AWS', () => {
  it(
    'answer every event source they accept',
    async () => {
      // An export through its whole life: API start, create and poll tasks, archive, files, check, list.
      const completed = await startAndCreate(SPOTS.completed);
      const replayed = await api(HandlerNames.START, requests.start(SPOTS.completed));
      expect(replayed).toMatchObject({ statusCode: 202, body: { exportId: completed } });
      const poll = { action: 'poll', spotId: SPOTS.completed, exportId: completed, deadline: deadline() };
      expect((await invoke(HandlerNames.WORKFLOW_TASK, poll)).error?.name).toBe('ExportStillProcessing');
      simulator.finishExport(upstreamIdOf(SPOTS.completed), 'completed');
      expect(await succeed(HandlerNames.WORKFLOW_TASK, poll)).toMatchObject({ status: 'COMPLETED' });
      // A replay after the export finished reads it whole, its link pages included.
      const replayedLater = await api(HandlerNames.START, requests.start(SPOTS.completed));
      expect(replayedLater).toMatchObject({
        statusCode: 202,
        body: { exportId: completed, status: 'COMPLETED', linkCount: EXPORT_FILES },
      });
      // A partition archived before the catalog's database changed: in the bucket, not in the catalog.
      standIns.objects.set(
        `${PHYSICAL_NAMES.bucketName}/tables/comments/spot=${SPOTS.completed}/date=2020-01-01/earlier.parquet`,
        { body: Buffer.from('PAR1'), contentType: 'application/vnd.apache.parquet' },
      );
      const archive = { action: 'archive', spotId: SPOTS.completed, exportId: completed };
      expect(await succeed(HandlerNames.ARCHIVE, archive)).toMatchObject({ archiveStatus: 'ARCHIVED' });
      // The export's partition of the query table, registered in the deployment's catalog, and the
      // earlier one the repair found in the bucket's listing and registered beside it.
      expect(standIns.partitions).toEqual([
        expect.stringMatching(
          new RegExp(`^openwebexports\\.comment_rows ${SPOTS.completed} \\d{4}-\\d{2}-\\d{2}$`),
        ),
        `openwebexports.comment_rows ${SPOTS.completed} 2020-01-01`,
      ]);
      const files = await api(HandlerNames.FILES, requests.files(SPOTS.completed, completed));
      expect(files.statusCode).toBe(200);
      const urls = (files.body.items as { url: string }[]).map((file) => file.url);
      expect(urls).toHaveLength(EXPORT_FILES);
      for (const url of urls) {
        // The presigned GET is made by the caller but authorized as the files function's role.
        const download = await fetch(url);
        expect(download.status).toBe(200);
        expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      const checked = await api(HandlerNames.CHECK_STATUS, requests.check(SPOTS.completed, completed));
      expect(checked).toMatchObject({
        statusCode: 200,
        body: { exportId: completed, status: 'COMPLETED', linkCount: EXPORT_FILES, linksTruncated: true },
      });
      const listed = await api(HandlerNames.LIST, requests.list(SPOTS.completed));
      expect(listed.statusCode).toBe(200);
      expect(listed.body.items).toEqual([expect.objectContaining({ exportId: completed })]);
      const byStatus = await api(HandlerNames.LIST, requests.list(SPOTS.completed, { status: 'COMPLETED' }));
      expect(byStatus.body.items).toEqual([expect.objectContaining({ exportId: completed })]);
      // Its window, written by the archive, in the spot's coverage.
      const coverage = await api(
        HandlerNames.COVERAGE,
        requests.coverage(SPOTS.completed, { from: EXPORT_WINDOW.from, until: EXPORT_WINDOW.until }),
      );
      expect(coverage).toMatchObject({
        statusCode: 200,
        body: {
          covered: [{ from: EXPORT_WINDOW.from, until: EXPORT_WINDOW.until }],
          summary: { hours: 24, coveredHours: 24, gapHours: 0 },
        },
      });

      // An archive whose downloads keep failing, until the workflow gives up on it.
      const unarchived = await startAndCreate(SPOTS.archiveFailed);
      const waitingForArchiveFailed = await queueBehind(SPOTS.archiveFailed);
      // The fleet at a glance, while the spot has an export running and one queued behind it: the
      // spots index finds it, and its lock and partition say what it is doing.
      const fleet = await api(HandlerNames.SPOTS, apiEvent({ route: '/spots' }));
      expect(fleet.statusCode).toBe(200);
      expect(fleet.body.items).toEqual(
        expect.arrayContaining([expect.objectContaining({ spotId: SPOTS.archiveFailed, queued: 1 })]),
      );
      simulator.finishExport(upstreamIdOf(SPOTS.archiveFailed), 'completed');
      // A status read finds it finished: it records the links (paged), frees the spot, announces it and
      // starts the export queued behind it.
      const seen = await api(HandlerNames.CHECK_STATUS, requests.check(SPOTS.archiveFailed, unarchived));
      expect(seen).toMatchObject({ statusCode: 200, body: { status: 'COMPLETED', linkCount: EXPORT_FILES } });
      expect(await statusOf(SPOTS.archiveFailed, waitingForArchiveFailed)).toBe('REQUESTED');
      simulator.setFaults({ endpoints: { download: { errorRate: 1, errorStatus: 503 } } });
      const retried = await invoke(HandlerNames.ARCHIVE, {
        ...archive,
        spotId: SPOTS.archiveFailed,
        exportId: unarchived,
      });
      expect(retried.error?.name).toBe('ExportArchiveRetry');
      simulator.setFaults({});
      const gaveUp = {
        action: 'archiveFailed',
        spotId: SPOTS.archiveFailed,
        exportId: unarchived,
        error: { Error: 'ExportArchiveRetry', Cause: 'download failed' },
      };
      expect(await succeed(HandlerNames.ARCHIVE, gaveUp)).toMatchObject({ archiveStatus: 'FAILED' });

      // Aborted over the API, and by the workflow's timeout path.
      const aborted = await startAndCreate(SPOTS.aborted);
      const waitingForAborted = await queueBehind(SPOTS.aborted);
      // The upstream rejects the fleet's token once: the abort signs in again with the spot's secret.
      simulator.setFaults({ script: [{ endpoint: 'abort', kind: 'error', status: 401 }] });
      const abortAnswer = await api(HandlerNames.ABORT, requests.abort(SPOTS.aborted, aborted));
      expect(abortAnswer).toMatchObject({ statusCode: 202, body: { status: 'ABORTED' } });
      expect(await statusOf(SPOTS.aborted, waitingForAborted)).toBe('REQUESTED');
      const timedOut = await startAndCreate(SPOTS.timedOut);
      const waitingForTimedOut = await queueBehind(SPOTS.timedOut);
      const timeout = { action: 'abortOnTimeout', spotId: SPOTS.timedOut, exportId: timedOut };
      expect(await succeed(HandlerNames.WORKFLOW_TASK, timeout)).toMatchObject({ status: 'ABORTED' });
      expect(await statusOf(SPOTS.timedOut, waitingForTimedOut)).toBe('REQUESTED');

      // A scheduled start, as EventBridge Scheduler delivers the template's schedule input; its abort
      // meets an upstream outage and is left ABORTING for the reconciler.
      const [scheduleInput] = scheduleInputsTo(HandlerNames.START);
      const scheduled = JSON.parse(
        String(scheduleInput).replace(
          SCHEDULED_TIME_PLACEHOLDER,
          new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        ),
      ) as { spotId: string };
      const scheduledStart = (await succeed(HandlerNames.START, scheduled)) as {
        windows: { exportId: string }[];
      };
      const scheduledExport = String(scheduledStart.windows[0]?.exportId);
      // Scheduler may deliver a run twice: the second finds its window planned and plans nothing.
      expect(await succeed(HandlerNames.START, scheduled)).toMatchObject({ windows: [] });
      await succeed(HandlerNames.WORKFLOW_TASK, {
        action: 'create',
        spotId: scheduled.spotId,
        exportId: scheduledExport,
        deadline: deadline(),
      });
      simulator.setFaults({ script: [{ endpoint: 'abort', kind: 'error', status: 503, times: 20 }] });
      const interrupted = await api(HandlerNames.ABORT, requests.abort(scheduled.spotId, scheduledExport));
      expect(interrupted.statusCode).toBe(503);
      simulator.setFaults({});

      // An export whose create answer was lost (the create task finds it in the upstream's list),
      // and whose workflow then died while it was PROCESSING.
      const stale = await api(HandlerNames.START, requests.start(SPOTS.stale));
      const create = {
        action: 'create',
        spotId: SPOTS.stale,
        exportId: String(stale.body.exportId),
        deadline: deadline(),
      };
      simulator.setFaults({ script: [{ endpoint: 'create', kind: 'resetAfterProcessing' }] });
      const lost = await invoke(HandlerNames.WORKFLOW_TASK, create);
      simulator.setFaults({});
      if (lost.error !== undefined) await succeed(HandlerNames.WORKFLOW_TASK, create);
      expect(simulator.listExports(SPOTS.stale)).toHaveLength(1);
      standIns.endAllExecutions('FAILED');

      // The reconciler's schedule, later: it finishes the abort and restarts the dead workflow.
      const [reconcilerInput] = scheduleInputsTo(HandlerNames.RECONCILE);
      const swept = await reconciler.process.invoke(JSON.parse(String(reconcilerInput)));
      if (swept.error !== undefined)
        throw new Error(`reconciler: ${JSON.stringify(swept.error)}\n${reconciler.process.output}`);
      // The dead workflows: the stale export's and those of the three exports started from the queue.
      expect(swept.result).toMatchObject({ finished: 1, workflowsRestarted: 4, failures: 0 });

      // A backfill of three days: planned and queued, its first window created upstream, read back,
      // replayed by its key, then aborted (the queued windows leave the queue, the running one is
      // aborted upstream).
      const backfillBody = { from: wholeHour(-72), until: wholeHour(0), windowHours: 24 };
      const backfillKey = { 'idempotency-key': 'history' };
      const backfill = await api(
        HandlerNames.BACKFILLS,
        requests.startBackfill(SPOTS.backfill, backfillBody, backfillKey),
      );
      expect(backfill).toMatchObject({
        statusCode: 202,
        body: { plan: { windowCount: 3 }, status: 'RUNNING' },
      });
      const backfillId = String(backfill.body.backfillId);
      const [firstWindow] = backfill.body.windows as { exportId: string }[];
      await succeed(HandlerNames.WORKFLOW_TASK, {
        action: 'create',
        spotId: SPOTS.backfill,
        exportId: String(firstWindow?.exportId),
        deadline: deadline(),
      });
      const replayedBackfill = await api(
        HandlerNames.BACKFILLS,
        requests.startBackfill(SPOTS.backfill, backfillBody, backfillKey),
      );
      expect(replayedBackfill).toMatchObject({ statusCode: 202, body: { backfillId } });
      const progress = await api(HandlerNames.BACKFILLS, requests.readBackfill(SPOTS.backfill, backfillId));
      expect(progress).toMatchObject({
        statusCode: 200,
        body: { progress: { windows: { running: 1, queued: 2 } } },
      });
      const abortedBackfill = await api(
        HandlerNames.BACKFILLS,
        requests.abortBackfill(SPOTS.backfill, backfillId),
      );
      expect(abortedBackfill).toMatchObject({
        statusCode: 202,
        body: { status: 'ABORTED', progress: { windows: { withdrawn: 3 } } },
      });
      expect(simulator.listExports(SPOTS.backfill).map((upstream) => upstream.state)).toEqual(['aborted']);

      // An erasure: the user suppressed and the erasure recorded (PutItem), asked for again (the
      // same one: GetItem after the refused put), read back (GetItem) and listed (Query).
      const erasure = await api(HandlerNames.ERASURES, requests.requestErasure(SPOTS.completed, 'u_forget'));
      expect(erasure).toMatchObject({ statusCode: 202, body: { status: 'RUNNING', userId: 'u_forget' } });
      const erasureId = String(erasure.body.erasureId);
      const again = await api(HandlerNames.ERASURES, requests.requestErasure(SPOTS.completed, 'u_forget'));
      expect(again).toMatchObject({ statusCode: 202, body: { erasureId } });
      const erasureRead = await api(HandlerNames.ERASURES, requests.readErasure(SPOTS.completed, erasureId));
      expect(erasureRead).toMatchObject({ statusCode: 200, body: { erasureId, status: 'RUNNING' } });
      const erasures = await api(HandlerNames.ERASURES, requests.listErasures(SPOTS.completed));
      expect(erasures).toMatchObject({ statusCode: 200, body: { items: [{ erasureId }] } });
      // Its workflow started (StartExecution on the erasure state machine); the reconciler, later,
      // finds it not held by any run and starts another execution of it.
      const lapsed = await reconciler.process.invoke(JSON.parse(String(reconcilerInput)));
      if (lapsed.error !== undefined)
        throw new Error(`reconciler: ${JSON.stringify(lapsed.error)}\n${reconciler.process.output}`);
      expect(lapsed.result).toMatchObject({ erasuresResumed: 1, erasureResumeFailures: 0 });

      // An erasure of a user the archived export holds, run by its task: every file read (GetObject),
      // those with the user rewritten (PutObject) and named in the manifest and the record, the old
      // versions listed (ListBucketVersions) and deleted (DeleteObjectVersion), the end announced.
      const [userId = 'none'] = archivedUsersOf(SPOTS.completed);
      const asked = await api(HandlerNames.ERASURES, requests.requestErasure(SPOTS.completed, userId));
      const erasedId = String(asked.body.erasureId);
      const task = { spotId: SPOTS.completed, erasureId: erasedId, runId: erasedId, passes: 0 };
      expect(await succeed(HandlerNames.ERASURE_TASK, task)).toMatchObject({
        outcome: 'finished',
        passes: 1,
      });
      const erased = await api(HandlerNames.ERASURES, requests.readErasure(SPOTS.completed, erasedId));
      expect(erased).toMatchObject({
        statusCode: 200,
        body: { status: 'COMPLETED', verification: { rowsFound: 0, tableRowsFound: 0 } },
      });
      // The table asked too: one Athena count in the deployment's workgroup, recorded with its text.
      const { LAKE_WORK_GROUP_NAME } = functionEnvironment(HandlerNames.ERASURE_TASK);
      expect([...standIns.queries.values()]).toEqual([LAKE_WORK_GROUP_NAME]);
      expect(JSON.stringify(erased.body.verification)).toContain(
        'SELECT count(*) AS user_rows FROM comment_rows',
      );
      expect(Number(erased.body.rowsRemoved)).toBeGreaterThan(0);
      expect(archivedUsersOf(SPOTS.completed).has(userId)).toBe(false);

      expect(standIns.unsupported).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it('make only calls their own role is granted', () => {
    const missing = observedCalls()
      .filter(
        ({ handler, action, resource }) =>
          !grantsOfFunction(handler).some((grant) => grantCovers(grant, action, resource)),
      )
      .map(describeCall);
    expect(missing).toEqual([]);
  });

  it('leave no grant unused but those listed with a reason', () => {
    const calls = observedCalls();
    const unused = Object.values(HandlerNames).flatMap((handler) =>
      grantsOfFunction(handler)
        .filter(
          (grant) =>
            !calls.some((call) => call.handler === handler && grantCovers(grant, call.action, call.resource)),
        )
        .map((grant) => `${handler} ${grant.action} ${grant.resource}`),
    );
    const patterns = Object.keys(UNUSED_GRANTS);
    expect(unused.filter((grant) => !patterns.some((pattern) => iamPatternMatches(pattern, grant)))).toEqual(
      [],
    );
    expect(patterns.filter((pattern) => !unused.some((grant) => iamPatternMatches(pattern, grant)))).toEqual(
      [],
    );
  });
});

/** The user ids of the spot's archived CSV files, read from the stand-in's objects (user_id precedes any free text). */
function archivedUsersOf(spotId: string): Set<string> {
  const users = new Set<string>();
  for (const [name, object] of standIns.objects) {
    if (!name.includes(`spot=${spotId}/`) || !name.endsWith('.csv.gz')) continue;
    const [header = '', ...rows] = gunzipSync(object.body).toString('utf8').trim().split('\n');
    const column = header.split(',').indexOf('user_id');
    for (const row of rows) users.add(row.split(',')[column] ?? '');
  }
  users.delete('');
  return users;
}

interface FunctionCall extends ObservedCall {
  handler: HandlerName;
}

/** The calls seen, each attributed to the function whose credentials signed it. */
function observedCalls(): FunctionCall[] {
  const byKey = new Map([...functions.values(), reconciler].map((fn) => [fn.accessKeyId, fn.handler]));
  return standIns.calls.map((call) => {
    const handler = byKey.get(call.accessKeyId);
    if (handler === undefined) throw new Error(`A call signed by an unknown key: ${JSON.stringify(call)}`);
    return { ...call, handler };
  });
}

function grantsOfFunction(handler: HandlerName): Grant[] {
  return grantsOf(statementsOfFunction(template, handler), deployment);
}

function describeCall(call: FunctionCall): string {
  return `${call.handler} ${call.action} ${call.resource}`;
}
