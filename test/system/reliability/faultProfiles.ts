import type { OpenWebClientOptions } from '../../../lib/openweb/OpenWebClient';
import type {
  EndpointFaults,
  OpenWebSimulatorOptions,
  ScriptedFault,
  SimulatorEndpoint,
} from '../../../local/openweb-simulator/index';
import {
  createSeededRandom,
  deriveSeed,
  type SeededRandom,
} from '../../../local/openweb-simulator/seededRandom';
import { DEFAULT_WORKLOAD_MIX, type WorkloadMix } from './randomWorkload';

/** Every upstream call the system makes (downloads are the users' business). */
export const FAULTED_ENDPOINTS: readonly SimulatorEndpoint[] = ['auth', 'create', 'status', 'abort', 'list'];

/** The share of calls the brief's "5xx on 20% of calls" fails. */
export const SERVER_ERROR_RATE = 0.2;
const SERVER_ERROR_STATUSES = [500, 502, 503, 504];
const RATE_LIMIT_RATE = 0.15;
const MAX_RATE_LIMIT_BURST = 4;
const MAX_RETRY_AFTER_SECONDS = 3;
const RESET_RATE = 0.1;
const MALFORMED_BODY_RATE = 0.2;
/** The client's per-request timeout in the latency profile: short, so each slow call costs little. */
export const SLOW_PROFILE_REQUEST_TIMEOUT_MS = 600;
/** Injected latency: well beyond that timeout. */
export const SLOW_CALL_LATENCY_MS = SLOW_PROFILE_REQUEST_TIMEOUT_MS + 400;
/** Slow phases end after this many workload steps, so late steps meet a calm upstream. */
const SLOW_PHASE_STEPS = 3;
const MIN_TOKEN_TTL_SECONDS = 8;
const MAX_TOKEN_TTL_SECONDS = 15;
/** The upstream's documented auth limit. */
export const AUTH_REQUESTS_PER_SECOND = 1;

/** A kind of upstream trouble, with the workload that meets it best. */
export interface FaultProfile {
  name: string;
  simulator(random: SeededRandom): OpenWebSimulatorOptions;
  /** Faults are lifted after this many steps (and the slow calls in flight drained). */
  liftAfterSteps?: number;
  mix: WorkloadMix;
  /** Overrides of the upstream client's options. */
  client?: Partial<OpenWebClientOptions>;
  /** The token lifetime the simulator was given, for the auth invariant. */
  tokenTtlSeconds?: (random: SeededRandom) => number;
}

function everyEndpoint(faults: (endpoint: SimulatorEndpoint) => EndpointFaults) {
  return Object.fromEntries(FAULTED_ENDPOINTS.map((endpoint) => [endpoint, faults(endpoint)]));
}

function between(random: SeededRandom, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export const FAULT_PROFILES: readonly FaultProfile[] = [
  {
    name: '5xx on 20% of calls',
    simulator: (random) => ({
      faults: {
        endpoints: everyEndpoint(() => ({
          errorRate: SERVER_ERROR_RATE,
          errorStatus: SERVER_ERROR_STATUSES[Math.floor(random() * SERVER_ERROR_STATUSES.length)] as number,
        })),
      },
    }),
    mix: DEFAULT_WORKLOAD_MIX,
  },
  {
    name: '429 bursts with Retry-After',
    simulator: (random) => ({
      faults: {
        endpoints: everyEndpoint(() => ({
          rateLimitRate: RATE_LIMIT_RATE,
          retryAfterSeconds: between(random, 0, MAX_RETRY_AFTER_SECONDS),
        })),
        script: rateLimitBursts(random, () => between(random, 0, MAX_RETRY_AFTER_SECONDS)),
      },
    }),
    mix: DEFAULT_WORKLOAD_MIX,
  },
  {
    name: '429 bursts without Retry-After',
    simulator: (random) => ({
      faults: {
        endpoints: everyEndpoint(() => ({ rateLimitRate: RATE_LIMIT_RATE, retryAfterSeconds: null })),
        script: rateLimitBursts(random, () => null),
      },
    }),
    mix: DEFAULT_WORKLOAD_MIX,
  },
  {
    name: 'connection resets before and after processing',
    simulator: () => ({
      faults: {
        endpoints: everyEndpoint(() => ({
          resetBeforeProcessingRate: RESET_RATE,
          resetAfterProcessingRate: RESET_RATE,
        })),
      },
    }),
    mix: DEFAULT_WORKLOAD_MIX,
  },
  {
    name: 'latency beyond the client timeout',
    simulator: (random) => {
      // Create is always slow; the other export endpoints are slow by the toss of a coin.
      const slow = FAULTED_ENDPOINTS.filter(
        (endpoint) => endpoint === 'create' || (endpoint !== 'auth' && random() < 0.5),
      );
      return {
        faults: {
          endpoints: Object.fromEntries(
            slow.map((endpoint) => [endpoint, { latencyMs: SLOW_CALL_LATENCY_MS }]),
          ),
        },
      };
    },
    client: { requestTimeoutMs: SLOW_PROFILE_REQUEST_TIMEOUT_MS },
    liftAfterSteps: SLOW_PHASE_STEPS,
    mix: { ...DEFAULT_WORKLOAD_MIX, apiStart: 6 },
  },
  {
    name: 'malformed bodies',
    simulator: () => ({
      faults: {
        endpoints: everyEndpoint((endpoint) => ({
          malformedBodyRate: malformedBodyRateOf(endpoint, MALFORMED_BODY_RATE),
        })),
      },
    }),
    mix: DEFAULT_WORKLOAD_MIX,
  },
  {
    name: 'tokens expiring every few seconds',
    simulator: () => ({}),
    tokenTtlSeconds: (random) => between(random, MIN_TOKEN_TTL_SECONDS, MAX_TOKEN_TTL_SECONDS),
    mix: { ...DEFAULT_WORKLOAD_MIX, advanceMinutes: 0, advanceSeconds: 4, coldContainers: 2 },
  },
  {
    name: 'auth limited to 1 request per second',
    simulator: () => ({ authRequestsPerSecond: AUTH_REQUESTS_PER_SECOND }),
    mix: { ...DEFAULT_WORKLOAD_MIX, coldContainers: 3, tokenExpiry: 2 },
  },
  {
    name: 'everything at once',
    simulator: (random) => ({
      authRequestsPerSecond: AUTH_REQUESTS_PER_SECOND,
      faults: {
        endpoints: everyEndpoint((endpoint) => ({
          errorRate: SERVER_ERROR_RATE / 2,
          rateLimitRate: RATE_LIMIT_RATE / 2,
          retryAfterSeconds: random() < 0.5 ? null : between(random, 0, MAX_RETRY_AFTER_SECONDS),
          resetBeforeProcessingRate: RESET_RATE / 2,
          resetAfterProcessingRate: RESET_RATE / 2,
          malformedBodyRate: malformedBodyRateOf(endpoint, MALFORMED_BODY_RATE / 4),
        })),
      },
    }),
    mix: { ...DEFAULT_WORKLOAD_MIX, coldContainers: 1 },
  },
];

/**
 * The simulator sends a malformed body as a 200 whatever the real answer was. For abort,
 * whose body nobody reads, that only turns a refusal (400: already finished) into a
 * success the upstream never gave, so abort answers keep their status.
 */
export function malformedBodyRateOf(endpoint: SimulatorEndpoint, rate: number): number {
  return endpoint === 'abort' ? 0 : rate;
}

/** A burst of 429s at the start of each export endpoint's traffic. */
function rateLimitBursts(random: SeededRandom, retryAfter: () => number | null): ScriptedFault[] {
  return FAULTED_ENDPOINTS.filter((endpoint) => endpoint !== 'auth').map((endpoint) => ({
    endpoint,
    kind: 'rateLimit' as const,
    times: between(random, 2, MAX_RATE_LIMIT_BURST),
    retryAfterSeconds: retryAfter(),
  }));
}

/** The profile's seeded stream, apart from the workload's and the simulator's. */
export function profileRandom(seed: number, profile: FaultProfile): SeededRandom {
  return createSeededRandom(deriveSeed(seed, `profile:${profile.name}`));
}
