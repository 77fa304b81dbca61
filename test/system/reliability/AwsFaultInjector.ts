import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import type { SeededRandom } from '../../../local/openweb-simulator/seededRandom';

/** The AWS services whose calls the suite refuses, by the name their clients give. */
export type AwsService = 'DynamoDB' | 'SFN' | 'S3' | 'EventBridge';

/** A refusal as AWS sends it: the status and the error code its answer carries. */
export interface AwsRefusal {
  status: number;
  code: string;
  message: string;
}

export const DYNAMODB_THROTTLING: AwsRefusal = {
  status: 400,
  code: 'ThrottlingException',
  message: 'Throughput exceeds the current capacity of your table or index.',
};
export const DYNAMODB_THROUGHPUT_EXCEEDED: AwsRefusal = {
  status: 400,
  code: 'ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded.',
};
export const STEP_FUNCTIONS_THROTTLING: AwsRefusal = {
  status: 400,
  code: 'ThrottlingException',
  message: 'Rate exceeded',
};
export const S3_SLOW_DOWN: AwsRefusal = {
  status: 503,
  code: 'SlowDown',
  message: 'Please reduce your request rate.',
};
export const EVENTBRIDGE_THROTTLING: AwsRefusal = {
  status: 400,
  code: 'ThrottlingException',
  message: 'Rate exceeded',
};

/** How one service's operations are refused: each HTTP attempt apart, and in bursts of attempts. */
export interface OperationFaults {
  /** Which refusal each refused attempt gets (drawn per attempt when several). */
  refusals: readonly AwsRefusal[];
  /** Share of attempts refused on their own. */
  rate: number;
  /** Share of attempts that start a burst: this one and the next ones of the service, up to `maxBurst`, are refused. */
  burstRate?: number;
  maxBurst?: number;
}

/** The operations (as the wire names them: `PutItem`, `StartExecution`, `PutObject`…) each rule covers. */
export interface AwsFaultRule extends OperationFaults {
  service: AwsService;
  operations: ReadonlySet<string>;
}

/** The DynamoDB operations that read, and those that write. */
export const DYNAMODB_READS: ReadonlySet<string> = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem']);
export const DYNAMODB_WRITES: ReadonlySet<string> = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
]);

interface MiddlewareStack {
  add(middleware: unknown, options: { step: 'deserialize'; priority: 'low'; name: string }): void;
}

interface SerializedRequest {
  headers: Record<string, string>;
}

/**
 * Refuses a share of the AWS calls the system makes, the way AWS does: an HTTP answer with the
 * service's own error code (a DynamoDB `ThrottlingException`, an S3 `SlowDown` 503…), given to
 * the SDK in place of the real answer. The SDK turns it into its own error and retries it as it
 * would the real one, so what reaches the adapters is what the SDK's retries did not absorb.
 * Only calls made inside `within` are refused: the suite's own reads (its invariants) are not.
 */
export class AwsFaultInjector {
  /** Refused HTTP attempts, by `<service> <code>`. */
  readonly refused = new Map<string, number>();
  readonly #rules: readonly AwsFaultRule[];
  readonly #random: SeededRandom;
  readonly #scope = new AsyncLocalStorage<true>();
  readonly #bursts = new Map<AwsFaultRule, number>();
  #lifted = false;

  constructor(random: SeededRandom, rules: readonly AwsFaultRule[]) {
    this.#random = random;
    this.#rules = rules;
  }

  /** Runs `work` as the system: its AWS calls meet the faults. */
  within<T>(work: () => Promise<T>): Promise<T> {
    return this.#scope.run(true, work);
  }

  /** From now on nothing is refused (the storm is over). */
  lift(): void {
    this.#lifted = true;
    this.#bursts.clear();
  }

  /** How many attempts were refused in all. */
  get refusedAttempts(): number {
    return [...this.refused.values()].reduce((sum, count) => sum + count, 0);
  }

  /** Adds the refusals to a client of `service`, inside its retries (each attempt is judged apart). */
  attach(client: { middlewareStack: MiddlewareStack }, service: AwsService): void {
    client.middlewareStack.add(
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
        async (args: { request: SerializedRequest }) => {
          const refusal = this.#refusalFor(service, operationOf(service, args.request, context));
          if (refusal === undefined) return next(args);
          this.refused.set(
            `${service} ${refusal.code}`,
            (this.refused.get(`${service} ${refusal.code}`) ?? 0) + 1,
          );
          return { response: refusalResponse(service, refusal), output: undefined };
        },
      { step: 'deserialize', priority: 'low', name: 'awsFaultInjector' },
    );
  }

  /** Whether a call made now (by `service`'s `operation`) is refused, and how. */
  refusalNow(service: AwsService, operation: string): AwsRefusal | undefined {
    return this.#refusalFor(service, operation);
  }

  #refusalFor(service: AwsService, operation: string): AwsRefusal | undefined {
    if (this.#lifted || this.#scope.getStore() !== true) return undefined;
    const rule = this.#rules.find(
      (candidate) => candidate.service === service && candidate.operations.has(operation),
    );
    if (rule === undefined) return undefined;
    const burst = this.#bursts.get(rule) ?? 0;
    if (burst > 0) {
      this.#bursts.set(rule, burst - 1);
      return this.#pick(rule);
    }
    if (rule.burstRate !== undefined && this.#random() < rule.burstRate) {
      const length = 1 + Math.floor(this.#random() * (rule.maxBurst ?? 1));
      this.#bursts.set(rule, length - 1);
      return this.#pick(rule);
    }
    return this.#random() < rule.rate ? this.#pick(rule) : undefined;
  }

  #pick(rule: AwsFaultRule): AwsRefusal {
    return rule.refusals[Math.floor(this.#random() * rule.refusals.length)] as AwsRefusal;
  }
}

/** The operation a serialized request calls: the JSON protocols' target header, else the command's name. */
function operationOf(
  service: AwsService,
  request: SerializedRequest,
  context: { commandName?: string },
): string {
  const target = request.headers['x-amz-target'] ?? request.headers['X-Amz-Target'];
  if (service !== 'S3' && target !== undefined) return target.slice(target.indexOf('.') + 1);
  return (context.commandName ?? '').replace(/Command$/, '');
}

/** The answer AWS gives a refused call: JSON for DynamoDB, Step Functions and EventBridge, XML for S3. */
export function refusalResponse(service: AwsService, refusal: AwsRefusal) {
  const body =
    service === 'S3'
      ? `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message><RequestId>fault</RequestId></Error>`
      : JSON.stringify({ __type: refusal.code, message: refusal.message });
  return {
    statusCode: refusal.status,
    reason: refusal.code,
    headers: {
      'content-type': service === 'S3' ? 'application/xml' : 'application/x-amz-json-1.0',
      'x-amzn-requestid': 'fault',
      ...(service !== 'S3' && { 'x-amzn-errortype': refusal.code }),
    },
    body: Readable.from([Buffer.from(body)]),
  };
}
