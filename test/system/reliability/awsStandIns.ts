import { Readable } from 'node:stream';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SFNClient } from '@aws-sdk/client-sfn';
import type { PollingWorkflows } from '../../../lib/exports/workflow/ports';
import type { PollingWorkflowInput } from '../../../lib/exports/workflow/workflowContract';
import type { AwsRefusal } from './AwsFaultInjector';

/** The ARN the suite's Step Functions adapter is given. */
export const SUITE_STATE_MACHINE_ARN = 'arn:aws:states:us-east-1:123456789012:stateMachine:exports-polling';
export const SUITE_EVENT_BUS_NAME = 'openweb-exports';
const STAND_IN_CONFIG = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'suite', secretAccessKey: 'suite' },
} as const;

interface WireRequest {
  headers: Record<string, string>;
  body?: unknown;
}

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  // The SDK's JSON body is a Uint8Array subclass that warns when read as a string: read its bytes.
  if (body instanceof Uint8Array)
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return '{}';
}

/** Answers a JSON-protocol call in this process, as the service would over HTTP. */
type JsonService = (operation: string, input: Record<string, unknown>) => Promise<JsonAnswer>;
type JsonAnswer = { status: 200; body: object } | { status: 400; code: string; message: string };

function jsonRequestHandler(service: JsonService) {
  return {
    handle: async (request: WireRequest) => {
      const target = request.headers['x-amz-target'] ?? '';
      const operation = target.slice(target.indexOf('.') + 1);
      const input = JSON.parse(bodyText(request.body)) as Record<string, unknown>;
      const answer = await service(operation, input);
      const body = answer.status === 200 ? answer.body : { __type: answer.code, message: answer.message };
      return {
        response: {
          statusCode: answer.status,
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'stand-in' },
          body: Readable.from([Buffer.from(JSON.stringify(body))]),
        },
      };
    },
  };
}

/**
 * A Step Functions client whose service is the scenario's workflow runner: StartExecution,
 * StopExecution and DescribeExecution reach `workflows()` (the current runtime's), so the
 * system's own Step Functions adapter, the SDK and its retries sit between the use cases and it.
 */
export function stepFunctionsStandIn(workflows: () => PollingWorkflows): SFNClient {
  const nameOf = (arn: unknown) => String(arn).slice(String(arn).lastIndexOf(':') + 1);
  return new SFNClient({
    ...STAND_IN_CONFIG,
    requestHandler: jsonRequestHandler(async (operation, input) => {
      switch (operation) {
        case 'StartExecution': {
          const name = String(input.name);
          await workflows().start(name, JSON.parse(String(input.input)) as PollingWorkflowInput);
          return { status: 200, body: { executionArn: `${SUITE_STATE_MACHINE_ARN}:${name}`, startDate: 0 } };
        }
        case 'StopExecution':
          await workflows().stop(nameOf(input.executionArn), String(input.cause ?? ''));
          return { status: 200, body: { stopDate: 0 } };
        case 'DescribeExecution': {
          const running = await workflows().isRunning(nameOf(input.executionArn));
          return { status: 200, body: { status: running ? 'RUNNING' : 'SUCCEEDED' } };
        }
        default:
          return { status: 400, code: 'UnknownOperationException', message: operation };
      }
    }),
  });
}

/** An event the stand-in bus accepted. */
export interface AcceptedEvent {
  detailType: string;
  detail: Record<string, unknown>;
}

/**
 * EventBridge in this process: PutEvents accepts each entry, or refuses it as EventBridge does
 * (an answer of 200 with `FailedEntryCount` and the entry's `ErrorCode`), at the share the
 * profile sets, only for calls the injector counts as the system's.
 */
export class EventBusStandIn {
  readonly accepted: AcceptedEvent[] = [];
  /** Entries refused, by error code. */
  readonly refusedEntries = new Map<string, number>();
  readonly client: EventBridgeClient;

  constructor(refuseEntry: () => AwsRefusal | undefined) {
    this.client = new EventBridgeClient({
      ...STAND_IN_CONFIG,
      requestHandler: jsonRequestHandler(async (operation, input) => {
        if (operation !== 'PutEvents')
          return { status: 400, code: 'UnknownOperationException', message: operation };
        const entries = (input.Entries ?? []) as { DetailType: string; Detail: string }[];
        const answers = entries.map((entry, index) => {
          const refusal = refuseEntry();
          if (refusal === undefined) {
            this.accepted.push({
              detailType: entry.DetailType,
              detail: JSON.parse(entry.Detail) as Record<string, unknown>,
            });
            return { EventId: `event-${this.accepted.length}-${index}` };
          }
          this.refusedEntries.set(refusal.code, (this.refusedEntries.get(refusal.code) ?? 0) + 1);
          return { ErrorCode: refusal.code, ErrorMessage: refusal.message };
        });
        const failed = answers.filter((answer) => 'ErrorCode' in answer).length;
        return { status: 200, body: { FailedEntryCount: failed, Entries: answers } };
      }),
    });
  }

  /** Entries refused in all. */
  get refusedCount(): number {
    return [...this.refusedEntries.values()].reduce((sum, count) => sum + count, 0);
  }
}

/**
 * The SDK's own retry decisions (which errors, how many attempts) without its real-time backoff:
 * the scenario's clock is its own, and seconds of real sleep per refusal would only slow the suite.
 */
export function withoutRetryDelays(client: {
  config: { retryStrategy: unknown; maxAttempts: () => Promise<number> };
}): void {
  const retried = new Set(['THROTTLING', 'TRANSIENT', 'SERVER_ERROR']);
  client.config.retryStrategy = async () => {
    const maxAttempts = await client.config.maxAttempts();
    const token = (count: number) => ({ getRetryCount: () => count, getRetryDelay: () => 0 });
    return {
      mode: 'standard',
      acquireInitialRetryToken: async () => token(0),
      refreshRetryTokenForRetry: async (
        previous: { getRetryCount(): number },
        info: { errorType: string; error?: Error },
      ) => {
        const count = previous.getRetryCount() + 1;
        if (!retried.has(info.errorType) || count >= maxAttempts) throw info.error ?? new Error('no retry');
        return token(count);
      },
      recordSuccess: () => {},
    };
  };
}
