import { z } from 'zod';
import { InvalidSimulatorFaultsError } from './errors';
import { SIMULATOR_ENDPOINTS, type SimulatorEndpoint } from './SimulatorEndpoint';
import { createSeededRandom, deriveSeed, type SeededRandom } from './seededRandom';

/** Probabilities 0..1, drawn from a seeded PRNG so a run can be repeated. */
export interface EndpointFaults {
  /** Answer `errorStatus` with a JSON error body, without side effect. */
  errorRate?: number;
  errorStatus?: number;
  /** Answer 429, without side effect. */
  rateLimitRate?: number;
  /** Retry-After on injected 429s (default 1); null sends no header. */
  retryAfterSeconds?: number | null;
  /** Added before answering, on every call. */
  latencyMs?: number;
  /** Destroy the socket without processing the call. */
  resetBeforeProcessingRate?: number;
  /** Process the call (its side effect happens), then destroy the socket instead of answering. */
  resetAfterProcessingRate?: number;
  /** Process the call, then answer 200 with a truncated body (not JSON, not a zip). */
  malformedBodyRate?: number;
}

export const SCRIPTED_FAULT_KINDS = [
  'error',
  'rateLimit',
  'resetBeforeProcessing',
  'resetAfterProcessing',
  'malformedBody',
  'latency',
] as const;

export type ScriptedFaultKind = (typeof SCRIPTED_FAULT_KINDS)[number];

/** Applies to the next `times` (default 1) calls of `endpoint`, in order, before rates. */
export interface ScriptedFault {
  endpoint: SimulatorEndpoint;
  kind: ScriptedFaultKind;
  times?: number;
  status?: number;
  retryAfterSeconds?: number | null;
  latencyMs?: number;
}

export interface SimulatorFaults {
  endpoints?: Partial<Record<SimulatorEndpoint, EndpointFaults>>;
  script?: ScriptedFault[];
}

/** What the simulator does to one call. */
export interface FaultDecision {
  /** The fault that shapes the answer; undefined answers normally. */
  kind: ScriptedFaultKind | undefined;
  latencyMs: number;
  errorStatus: number;
  retryAfterSeconds: number | null;
}

export const DEFAULT_FAULT_ERROR_STATUS = 503;
export const DEFAULT_FAULT_RETRY_AFTER_SECONDS = 1;
export const DEFAULT_SCRIPTED_LATENCY_MS = 1_000;

const probability = z.number().min(0).max(1);
const errorStatus = z.int().min(400).max(599);
const retryAfterSeconds = z.int().min(0).nullable();
const latencyMs = z.number().min(0);

const endpointFaultsSchema = z.strictObject({
  errorRate: probability.optional(),
  errorStatus: errorStatus.optional(),
  rateLimitRate: probability.optional(),
  retryAfterSeconds: retryAfterSeconds.optional(),
  latencyMs: latencyMs.optional(),
  resetBeforeProcessingRate: probability.optional(),
  resetAfterProcessingRate: probability.optional(),
  malformedBodyRate: probability.optional(),
});

const scriptedFaultSchema = z.strictObject({
  endpoint: z.enum(SIMULATOR_ENDPOINTS),
  kind: z.enum(SCRIPTED_FAULT_KINDS),
  times: z.int().min(1).optional(),
  status: errorStatus.optional(),
  retryAfterSeconds: retryAfterSeconds.optional(),
  latencyMs: latencyMs.optional(),
});

const simulatorFaultsSchema = z.strictObject({
  endpoints: z.partialRecord(z.enum(SIMULATOR_ENDPOINTS), endpointFaultsSchema).optional(),
  script: z.array(scriptedFaultSchema).optional(),
});

/** Checks a fault configuration received from outside (e.g. over HTTP). */
export function parseSimulatorFaults(input: unknown): SimulatorFaults {
  const parsed = simulatorFaultsSchema.safeParse(input);
  if (!parsed.success) {
    throw new InvalidSimulatorFaultsError(`Invalid simulator faults: ${z.prettifyError(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

interface PendingScriptedFault {
  fault: ScriptedFault;
  remainingCalls: number;
}

/**
 * Decides, call by call, which fault (if any) hits each endpoint. Every call draws exactly one
 * number from its endpoint's own stream, whether a scripted fault applies or not, so the n-th
 * call of an endpoint meets the same rate-based outcome for a given seed whatever else happens.
 */
export class FaultInjector {
  #faults: SimulatorFaults = {};
  #script: PendingScriptedFault[] = [];
  #streams = new Map<SimulatorEndpoint, SeededRandom>();

  constructor(
    private readonly seed: number,
    faults: SimulatorFaults = {},
  ) {
    this.replace(faults);
  }

  /** Replaces the whole configuration, script queue included, and restarts the random streams. */
  replace(faults: SimulatorFaults): void {
    const checked = parseSimulatorFaults(faults);
    this.#faults = checked;
    this.#script = (checked.script ?? []).map((fault) => ({ fault, remainingCalls: fault.times ?? 1 }));
    this.#streams = new Map(
      SIMULATOR_ENDPOINTS.map((endpoint) => [
        endpoint,
        createSeededRandom(deriveSeed(this.seed, `faults:${endpoint}`)),
      ]),
    );
  }

  decide(endpoint: SimulatorEndpoint): FaultDecision {
    const config = this.#faults.endpoints?.[endpoint] ?? {};
    const draw = this.#draw(endpoint);
    const scripted = this.#takeScripted(endpoint);
    const baseLatencyMs = config.latencyMs ?? 0;
    const configRetryAfter =
      config.retryAfterSeconds === undefined ? DEFAULT_FAULT_RETRY_AFTER_SECONDS : config.retryAfterSeconds;

    if (scripted) {
      const scriptedLatencyMs =
        scripted.latencyMs ?? (scripted.kind === 'latency' ? DEFAULT_SCRIPTED_LATENCY_MS : 0);
      return {
        kind: scripted.kind,
        latencyMs: baseLatencyMs + scriptedLatencyMs,
        errorStatus: scripted.status ?? config.errorStatus ?? DEFAULT_FAULT_ERROR_STATUS,
        retryAfterSeconds:
          scripted.retryAfterSeconds === undefined ? configRetryAfter : scripted.retryAfterSeconds,
      };
    }

    return {
      kind: rateBasedKind(config, draw) ?? (baseLatencyMs > 0 ? 'latency' : undefined),
      latencyMs: baseLatencyMs,
      errorStatus: config.errorStatus ?? DEFAULT_FAULT_ERROR_STATUS,
      retryAfterSeconds: configRetryAfter,
    };
  }

  #draw(endpoint: SimulatorEndpoint): number {
    const stream = this.#streams.get(endpoint);
    if (!stream) {
      throw new InvalidSimulatorFaultsError(`Unknown simulator endpoint ${endpoint}`);
    }
    return stream();
  }

  #takeScripted(endpoint: SimulatorEndpoint): ScriptedFault | undefined {
    const index = this.#script.findIndex((pending) => pending.fault.endpoint === endpoint);
    const pending = this.#script[index];
    if (!pending) {
      return undefined;
    }
    pending.remainingCalls -= 1;
    if (pending.remainingCalls <= 0) {
      this.#script.splice(index, 1);
    }
    return pending.fault;
  }
}

/** One draw split into consecutive bands, one per rate; rates summing past 1 crowd out the later ones. */
function rateBasedKind(config: EndpointFaults, draw: number): ScriptedFaultKind | undefined {
  const bands: [ScriptedFaultKind, number | undefined][] = [
    ['resetBeforeProcessing', config.resetBeforeProcessingRate],
    ['error', config.errorRate],
    ['rateLimit', config.rateLimitRate],
    ['malformedBody', config.malformedBodyRate],
    ['resetAfterProcessing', config.resetAfterProcessingRate],
  ];
  let upperBound = 0;
  for (const [kind, rate] of bands) {
    upperBound += rate ?? 0;
    if (draw < upperBound) {
      return kind;
    }
  }
  return undefined;
}
