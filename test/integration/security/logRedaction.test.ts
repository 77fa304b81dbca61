import { randomBytes } from 'node:crypto';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeAbortHandler } from '../../../functions/abort';
import { makeCheckStatusHandler } from '../../../functions/check-status';
import { makeListHandler } from '../../../functions/list';
import { makeReconcileHandler } from '../../../functions/reconcile';
import { makeStartHandler } from '../../../functions/start';
import { makeWorkflowTaskHandler } from '../../../functions/workflow-task';
import { createLogger } from '../../../lib/observability/createLogger';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { DEMO_SPOTS } from '../../../local/openweb-simulator/index';
import { apiRequests, lambdaContext, parseResponse } from '../../support/apiGatewayEvents';
import { lifecycleDependencies } from '../../support/lifecycleDependencies';
import {
  createTaskEvent,
  DATE_RANGE,
  type MockedAwsRuntime,
  OTHER_SPOT,
  SECRET_NAME_PREFIX,
  SPOT,
  startMockedAwsRuntime,
} from '../../unit/functions/support/mockedAwsRuntime';

/** The key stored for OTHER_SPOT: the simulator refuses it, so its auth fails. */
const WRONG_API_KEY = `wrong-key-${randomBytes(12).toString('hex')}`;
/** A third spot, added to the simulator, so a second token is issued. */
const THIRD_SPOT = 'sp_third';
const THIRD_API_KEY = `third-key-${randomBytes(12).toString('hex')}`;
/** Long enough for a simulated day-long export to finish. */
const EXPORT_FINISH_MS = 3 * 60 * 60 * 1000;
const AUTH_PATH = '/v1/publisher/auth';
const SIGNATURE_PARAMETER = 'signature';

function base64Url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A JWT as a caller would send it to the API in JWT mode (API Gateway verifies it, the handlers see it). */
const CALLER_JWT = [
  base64Url({ alg: 'RS256', typ: 'JWT' }),
  base64Url({ sub: 'caller', 'custom:spots': SPOT, exp: 4_102_444_800 }),
  randomBytes(64).toString('base64url'),
].join('.');

/** What may never appear in a log line: the whole value and, for a JWT, its signature alone. */
function secretFragments(value: string): string[] {
  const parts = value.split('.');
  return parts.length === 3 ? [value, parts[2] as string] : [value];
}

describe('logs at DEBUG level', () => {
  let aws: MockedAwsRuntime;
  const captured: string[] = [];
  const issuedTokens: string[] = [];
  const sentBearerTokens = new Set<string>();
  const downloadLinks: string[] = [];
  const answers: Record<string, number> = {};
  const taskErrors: string[] = [];

  /** The upstream seen from the client's side: every token it issued and every bearer token sent to it. */
  const recordingFetch: typeof fetch = async (input, init) => {
    const authorization = new Headers(init?.headers).get('authorization');
    if (authorization !== null) sentBearerTokens.add(authorization.replace(/^Bearer /, ''));
    const response = await fetch(input, init);
    if (new URL(String(input)).pathname === AUTH_PATH && response.ok) {
      const body = (await response.clone().json()) as { token: string };
      issuedTokens.push(body.token);
    }
    return response;
  };

  beforeAll(async () => {
    // Prepare
    aws = await startMockedAwsRuntime();
    aws.simulator.addSpot(THIRD_SPOT, THIRD_API_KEY);
    aws.secretsManager.on(GetSecretValueCommand).callsFake((input) => {
      const spotId = String(input.SecretId).slice(SECRET_NAME_PREFIX.length);
      const apiKey =
        spotId === OTHER_SPOT
          ? WRONG_API_KEY
          : spotId === THIRD_SPOT
            ? THIRD_API_KEY
            : DEMO_SPOTS[spotId]?.apiKey;
      return { SecretString: JSON.stringify({ spotId, apiKey }) };
    });
    const collect = (chunk: unknown): boolean => {
      captured.push(String(chunk));
      return true;
    };
    const collectArguments = (...values: unknown[]): void => {
      captured.push(values.map(String).join(' '));
    };
    const spies = [
      vi.spyOn(process.stdout, 'write').mockImplementation(collect),
      vi.spyOn(process.stderr, 'write').mockImplementation(collect),
      ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
        vi.spyOn(console, method).mockImplementation(collectArguments),
      ),
    ];
    // An operator may turn event logging on: the handlers' own `logEvent: false` must still win.
    vi.stubEnv('POWERTOOLS_LOGGER_LOG_EVENT', 'true');
    try {
      const logger = createLogger({ logLevel: 'DEBUG' });
      const dependencies = lifecycleDependencies(aws.config, {
        clients: aws.clients,
        metrics: new InMemoryExportMetrics(),
        now: aws.clock.now,
        logger,
        fetch: recordingFetch,
      });
      const runtime = handlerRuntimeFor(dependencies, { logger });
      const start = makeStartHandler(runtime);
      const check = makeCheckStatusHandler(runtime);
      const task = makeWorkflowTaskHandler(runtime);
      const reconcile = makeReconcileHandler(runtime);
      const abort = makeAbortHandler(runtime);
      const list = makeListHandler(runtime);
      const answer = async (label: string, event: APIGatewayProxyEventV2) => {
        const response = parseResponse(
          await [start, check, abort, list][['start', 'check', 'abort', 'list'].indexOf(label)]?.(
            event,
            lambdaContext(),
          ),
        );
        answers[`${label} ${response.statusCode}`] = (answers[`${label} ${response.statusCode}`] ?? 0) + 1;
        return response;
      };
      // The workflow's create task, as the state machine runs it after each start.
      const createTask = (spotId: string, exportId: unknown) =>
        task(createTaskEvent(spotId, String(exportId)), lambdaContext()).catch(
          (error: unknown) => void taskErrors.push((error as Error).name),
        );
      const withCallerToken = (event: APIGatewayProxyEventV2): APIGatewayProxyEventV2 => ({
        ...event,
        headers: { ...event.headers, authorization: `Bearer ${CALLER_JWT}` },
      });

      // Act: start, check, poll (through an upstream hiccup), complete, list, abort, a second
      // spot, a refused key, and the reconciler.
      const started = await answer('start', withCallerToken(apiRequests.start(SPOT, DATE_RANGE)));
      const exportId = String(started.body.exportId);
      await createTask(SPOT, exportId);
      await answer('check', withCallerToken(apiRequests.check(SPOT, exportId)));
      aws.simulator.setFaults({ script: [{ endpoint: 'status', kind: 'error', status: 503 }] });
      await task(
        { action: 'poll', spotId: SPOT, exportId, deadline: '2030-01-01T00:00:00Z' },
        lambdaContext(),
      ).catch(() => undefined);
      aws.clock.advance(EXPORT_FINISH_MS);
      const completed = await answer('check', withCallerToken(apiRequests.check(SPOT, exportId)));
      downloadLinks.push(...(completed.body.links as string[]));
      await answer('list', withCallerToken(apiRequests.list(SPOT)));
      const second = await answer('start', withCallerToken(apiRequests.start(SPOT, DATE_RANGE)));
      await createTask(SPOT, second.body.exportId);
      await answer('abort', withCallerToken(apiRequests.abort(SPOT, String(second.body.exportId))));
      const third = await answer('start', withCallerToken(apiRequests.start(THIRD_SPOT, DATE_RANGE)));
      await createTask(THIRD_SPOT, third.body.exportId);
      await answer('list', withCallerToken(apiRequests.list(THIRD_SPOT)));
      const refused = await answer('start', withCallerToken(apiRequests.start(OTHER_SPOT, DATE_RANGE)));
      await createTask(OTHER_SPOT, refused.body.exportId);
      await reconcile({ source: 'reconciler' }, lambdaContext());
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await aws?.close();
  });

  function lines(): string[] {
    return captured.flatMap((chunk) => chunk.split('\n')).filter((line) => line.trim() !== '');
  }

  it('ran every flow, the refused key included, with debug logging on', () => {
    // Assess
    expect(answers).toMatchObject({
      'start 202': 4,
      'check 200': 2,
      'list 200': 2,
      'abort 202': 1,
    });
    // The wrong key is refused upstream: the workflow's create task ends the export FAILED.
    expect(taskErrors).toEqual(['ExportCreateRejected']);
    expect(downloadLinks.length).toBeGreaterThan(0);
    const records = lines().map((line) => JSON.parse(line) as { level: string; message: string });
    // Every upstream request is a DEBUG line: the capture saw all of them.
    const upstreamRequestLines = records.filter(
      (record) => record.level === 'DEBUG' && record.message === 'Upstream request',
    );
    expect(upstreamRequestLines.length).toBeGreaterThan(0);
    expect(upstreamRequestLines).toHaveLength(aws.simulator.requestLog.length);
    expect(records.map((record) => record.message)).toEqual(
      expect.arrayContaining([
        'Upstream request',
        'Upstream client event',
        'Task failed; its caller decides what follows',
      ]),
    );
  });

  it('knows every token the upstream issued: one per successful auth, and only those were sent', () => {
    // Act
    const successfulAuths = aws.simulator.requestsTo('auth').filter((request) => request.status === 200);

    // Assess
    expect(issuedTokens.length).toBeGreaterThanOrEqual(2);
    expect(issuedTokens).toHaveLength(successfulAuths.length);
    expect([...sentBearerTokens].sort()).toEqual([...new Set(issuedTokens)].sort());
  });

  it('holds no API key, no upstream token, no caller token and no download link signature', () => {
    // Prepare
    const apiKeys = [...Object.values(DEMO_SPOTS).map((spot) => spot.apiKey), WRONG_API_KEY, THIRD_API_KEY];
    const linkSignatures = downloadLinks.map(
      (link) => new URL(link).searchParams.get(SIGNATURE_PARAMETER) ?? '',
    );
    const secrets = [...apiKeys, ...issuedTokens, CALLER_JWT, ...linkSignatures].flatMap(secretFragments);
    const logLines = lines();

    // Act
    const hits = logLines.flatMap((line, index) =>
      secrets.filter((secret) => line.includes(secret)).map(() => `line ${index}`),
    );

    // Assess
    expect(logLines.length).toBeGreaterThan(0);
    expect(linkSignatures.every((signature) => signature.length > 0)).toBe(true);
    expect(hits).toEqual([]);
  });
});
