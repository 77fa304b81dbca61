import type { SeededRandom } from '../../../local/openweb-simulator/seededRandom';
import {
  type AwsFaultRule,
  type AwsRefusal,
  DYNAMODB_READS,
  DYNAMODB_THROTTLING,
  DYNAMODB_THROUGHPUT_EXCEEDED,
  DYNAMODB_WRITES,
  EVENTBRIDGE_THROTTLING,
  S3_SLOW_DOWN,
  STEP_FUNCTIONS_THROTTLING,
} from './AwsFaultInjector';
import { DEFAULT_WORKLOAD_MIX, ERASURE_WORKLOAD_MIX, type WorkloadMix } from './randomWorkload';

/**
 * Share of DynamoDB attempts refused on their own. The SDK sends a call up to its attempts (4 for
 * DynamoDB), so alone these rarely get through; the bursts below do.
 */
export const DYNAMODB_REFUSAL_RATE = 0.2;
/**
 * Share of DynamoDB attempts that start a burst of refusals, as an on-demand table does above
 * twice its previous peak: longer than the SDK's attempts, so a call or two fails outright.
 */
export const DYNAMODB_BURST_RATE = 0.02;
export const DYNAMODB_MAX_BURST_ATTEMPTS = 10;
/** Step Functions refuses StartExecution in bursts: many schedules firing in the same minute. */
export const START_EXECUTION_REFUSAL_RATE = 0.1;
export const START_EXECUTION_BURST_RATE = 0.15;
export const START_EXECUTION_MAX_BURST_ATTEMPTS = 12;
/** Share of PutEvents entries EventBridge refuses in an answer of 200. */
export const EVENT_ENTRY_REFUSAL_RATE = 0.3;
export const EVENT_ENTRY_BURST_RATE = 0.05;
export const EVENT_ENTRY_MAX_BURST = 6;
/** Share of PutEvents calls refused whole (the SDK retries those). */
export const PUT_EVENTS_REFUSAL_RATE = 0.1;

/** Share of S3 attempts refused with SlowDown (503); a streamed upload is never retried by the SDK. */
export const S3_SLOW_DOWN_RATE = 0.15;
export const S3_SLOW_DOWN_BURST_RATE = 0.05;
export const S3_SLOW_DOWN_MAX_BURST = 8;
/** What the archive sends S3: single uploads, multipart uploads, and what `/files` and a re-run read. */
const S3_OPERATIONS: ReadonlySet<string> = new Set([
  'PutObject',
  'CreateMultipartUpload',
  'UploadPart',
  'CompleteMultipartUpload',
  'GetObject',
  'HeadObject',
]);

/** EventBridge's passing per-entry refusals. */
const EVENT_ENTRY_REFUSALS: readonly AwsRefusal[] = [
  EVENTBRIDGE_THROTTLING,
  { status: 200, code: 'InternalFailure', message: 'Internal failure' },
];
const DYNAMODB_REFUSALS = [DYNAMODB_THROTTLING, DYNAMODB_THROUGHPUT_EXCEEDED];

/** A kind of AWS pushback, with the workload that meets it best. */
export interface AwsFaultProfile {
  name: string;
  rules(random: SeededRandom): AwsFaultRule[];
  mix: WorkloadMix;
  /** The workflow's archive task runs too, storing each COMPLETED export's files on the S3 stand-in. */
  archiving?: boolean;
}

function dynamoDbRules(scale: number): AwsFaultRule[] {
  return [DYNAMODB_READS, DYNAMODB_WRITES].map((operations) => ({
    service: 'DynamoDB',
    operations,
    refusals: DYNAMODB_REFUSALS,
    rate: DYNAMODB_REFUSAL_RATE * scale,
    burstRate: DYNAMODB_BURST_RATE * scale,
    maxBurst: DYNAMODB_MAX_BURST_ATTEMPTS,
  }));
}

function startExecutionRules(scale: number): AwsFaultRule[] {
  return [
    {
      service: 'SFN',
      operations: new Set(['StartExecution']),
      refusals: [STEP_FUNCTIONS_THROTTLING],
      rate: START_EXECUTION_REFUSAL_RATE * scale,
      burstRate: START_EXECUTION_BURST_RATE * scale,
      maxBurst: START_EXECUTION_MAX_BURST_ATTEMPTS,
    },
  ];
}

function putEventsRules(scale: number): AwsFaultRule[] {
  return [
    {
      service: 'EventBridge',
      operations: new Set(['PutEventsEntry']),
      refusals: EVENT_ENTRY_REFUSALS,
      rate: EVENT_ENTRY_REFUSAL_RATE * scale,
      burstRate: EVENT_ENTRY_BURST_RATE * scale,
      maxBurst: EVENT_ENTRY_MAX_BURST,
    },
    {
      service: 'EventBridge',
      operations: new Set(['PutEvents']),
      refusals: [EVENTBRIDGE_THROTTLING],
      rate: PUT_EVENTS_REFUSAL_RATE * scale,
    },
  ];
}

function s3Rules(scale: number): AwsFaultRule[] {
  return [
    {
      service: 'S3',
      operations: S3_OPERATIONS,
      refusals: [S3_SLOW_DOWN],
      rate: S3_SLOW_DOWN_RATE * scale,
      burstRate: S3_SLOW_DOWN_BURST_RATE * scale,
      maxBurst: S3_SLOW_DOWN_MAX_BURST,
    },
  ];
}

/** Many schedules in the same minute: deliveries and queued starts outnumber the rest. */
const BURSTY_STARTS_MIX: WorkloadMix = { ...DEFAULT_WORKLOAD_MIX, scheduleDelivery: 5, apiQueuedStart: 4 };

export const AWS_FAULT_PROFILES: readonly AwsFaultProfile[] = [
  {
    name: 'DynamoDB throttling on reads and writes',
    rules: () => dynamoDbRules(1),
    mix: DEFAULT_WORKLOAD_MIX,
  },
  {
    name: 'Step Functions StartExecution throttled in bursts',
    rules: () => startExecutionRules(1),
    mix: BURSTY_STARTS_MIX,
  },
  {
    name: 'EventBridge PutEvents entries refused',
    rules: () => putEventsRules(1),
    mix: DEFAULT_WORKLOAD_MIX,
  },
  {
    name: 'S3 SlowDown on archive uploads',
    rules: () => s3Rules(1),
    mix: { ...DEFAULT_WORKLOAD_MIX, upstreamFinishes: 4, ...ERASURE_WORKLOAD_MIX },
    archiving: true,
  },
  {
    name: 'all AWS pushback at once',
    rules: () => [
      ...dynamoDbRules(0.5),
      ...startExecutionRules(0.5),
      ...putEventsRules(0.5),
      ...s3Rules(0.5),
    ],
    mix: { ...BURSTY_STARTS_MIX, ...ERASURE_WORKLOAD_MIX },
    archiving: true,
  },
];
