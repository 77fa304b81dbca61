import {
  SimulatedExportFinishedError,
  SpotExportInProgressError,
  UnknownSimulatedExportError,
} from './errors';
import { type CreateExportRequest, parseRfc3339Utc } from './requestValidation';
import { createSeededRandom, randomHex, type SeededRandom } from './seededRandom';

export const SimulatedExportStates = {
  processing: 'processing',
  completed: 'completed',
  failed: 'failed',
  aborted: 'aborted',
} as const;

export type SimulatedExportState = (typeof SimulatedExportStates)[keyof typeof SimulatedExportStates];

export type SimulatedExportOutcome = 'completed' | 'failed';

export interface SimulatedExportView {
  id: string;
  spotId: string;
  state: SimulatedExportState;
  /** The create body as the client sent it. */
  request: Record<string, unknown>;
  createdAt: number;
  /** When it stops (stopped) processing, epoch ms; moved to the actual instant when finished early. */
  finishesAt: number;
  links: string[];
}

export const DEFAULT_CONVERSATION_EXPORT_DURATION_MS = 30_000;
export const DEFAULT_EXPORT_BASE_DURATION_MS = 30_000;
export const DEFAULT_EXPORT_DURATION_MS_PER_RANGE_HOUR = 60_000;
const MS_PER_HOUR = 60 * 60 * 1000;

/** Simulated processing time: 30 s, plus 60 s per hour of range for a date-range export. */
export function defaultExportDurationMs(request: Record<string, unknown>): number {
  const fromMs = parseRfc3339Utc(request.from);
  const untilMs = parseRfc3339Utc(request.until);
  if (fromMs === undefined || untilMs === undefined) {
    return DEFAULT_CONVERSATION_EXPORT_DURATION_MS;
  }
  const rangeHours = (untilMs - fromMs) / MS_PER_HOUR;
  return DEFAULT_EXPORT_BASE_DURATION_MS + DEFAULT_EXPORT_DURATION_MS_PER_RANGE_HOUR * rangeHours;
}

export interface SimulatedExport {
  readonly id: string;
  readonly spotId: string;
  /** Creation order, to sort exports created within the same millisecond. */
  readonly sequence: number;
  readonly request: Record<string, unknown>;
  readonly parsedRequest: CreateExportRequest;
  readonly createdAt: number;
  finishesAt: number;
  state: SimulatedExportState;
  links: string[];
}

export interface SimulatedExportsOptions {
  now: () => number;
  /** Real ms per simulated ms. */
  timeScale: number;
  exportDurationMs: (request: Record<string, unknown>) => number;
  outcome: (request: Record<string, unknown>) => SimulatedExportOutcome;
  /** The download links of an export that completed at `completedAt`. */
  linksFor: (simulatedExport: SimulatedExport, completedAt: number) => string[];
  seed: number;
  /** Called after every change that is not derived from the clock (create, abort, forced finish). */
  onChange?: () => void;
}

/** What a restart needs to carry on: every export and the creation counter. */
export interface SimulatedExportsSnapshot {
  sequence: number;
  exports: SimulatedExport[];
}

/**
 * The upstream's exports. No timers run: every read first settles the exports whose processing
 * time has passed on the injected clock, so advancing the clock is all a test needs to do.
 */
export class SimulatedExports {
  readonly #exports = new Map<string, SimulatedExport>();
  readonly #idRandom: SeededRandom;
  #sequence = 0;

  constructor(private readonly options: SimulatedExportsOptions) {
    this.#idRandom = createSeededRandom(options.seed);
  }

  /** Starts an export, unless the spot already has one processing (one at a time per spot). */
  create(
    spotId: string,
    request: Record<string, unknown>,
    parsedRequest: CreateExportRequest,
  ): SimulatedExport {
    const running = this.#all().find(
      (candidate) => candidate.spotId === spotId && candidate.state === SimulatedExportStates.processing,
    );
    if (running) {
      throw new SpotExportInProgressError(spotId, running.id);
    }
    const createdAt = this.options.now();
    const simulatedExport: SimulatedExport = {
      id: this.#newId(),
      spotId,
      sequence: this.#sequence++,
      request,
      parsedRequest,
      createdAt,
      finishesAt: createdAt + this.options.exportDurationMs(request) * this.options.timeScale,
      state: SimulatedExportStates.processing,
      links: [],
    };
    this.#exports.set(simulatedExport.id, simulatedExport);
    this.options.onChange?.();
    return simulatedExport;
  }

  snapshot(): SimulatedExportsSnapshot {
    return { sequence: this.#sequence, exports: structuredClone([...this.#exports.values()]) };
  }

  restore(snapshot: SimulatedExportsSnapshot): void {
    this.#sequence = snapshot.sequence;
    for (const simulatedExport of snapshot.exports) {
      // Links name the server's address, which may differ after a restart.
      if (simulatedExport.state === SimulatedExportStates.completed) {
        simulatedExport.links = this.options.linksFor(simulatedExport, simulatedExport.finishesAt);
      }
      this.#exports.set(simulatedExport.id, simulatedExport);
    }
  }

  get(id: string): SimulatedExport | undefined {
    const simulatedExport = this.#exports.get(id);
    if (simulatedExport) {
      this.#settleIfDue(simulatedExport);
    }
    return simulatedExport;
  }

  /** Exports (of one spot, or all), newest first. */
  list(spotId?: string): SimulatedExport[] {
    return this.#all()
      .filter((candidate) => spotId === undefined || candidate.spotId === spotId)
      .sort((left, right) => right.createdAt - left.createdAt || right.sequence - left.sequence);
  }

  abort(id: string): SimulatedExport {
    return this.#finishNow(id, SimulatedExportStates.aborted);
  }

  /** Forces an outcome now, whatever time was left. */
  finish(id: string, outcome: SimulatedExportOutcome): SimulatedExport {
    return this.#finishNow(id, outcome);
  }

  #finishNow(id: string, state: SimulatedExportState): SimulatedExport {
    const simulatedExport = this.get(id);
    if (!simulatedExport) {
      throw new UnknownSimulatedExportError(id);
    }
    if (simulatedExport.state !== SimulatedExportStates.processing) {
      throw new SimulatedExportFinishedError(id, simulatedExport.state);
    }
    this.#settle(simulatedExport, state, this.options.now());
    this.options.onChange?.();
    return simulatedExport;
  }

  #all(): SimulatedExport[] {
    const all = [...this.#exports.values()];
    for (const simulatedExport of all) {
      this.#settleIfDue(simulatedExport);
    }
    return all;
  }

  #settleIfDue(simulatedExport: SimulatedExport): void {
    if (
      simulatedExport.state === SimulatedExportStates.processing &&
      this.options.now() >= simulatedExport.finishesAt
    ) {
      this.#settle(
        simulatedExport,
        this.options.outcome(simulatedExport.request),
        simulatedExport.finishesAt,
      );
    }
  }

  #settle(simulatedExport: SimulatedExport, state: SimulatedExportState, at: number): void {
    simulatedExport.state = state;
    simulatedExport.finishesAt = at;
    simulatedExport.links =
      state === SimulatedExportStates.completed ? this.options.linksFor(simulatedExport, at) : [];
  }

  #newId(): string {
    let id: string;
    do {
      id = `exp_${randomHex(this.#idRandom, 20)}`;
    } while (this.#exports.has(id));
    return id;
  }
}

export function viewOf(simulatedExport: SimulatedExport): SimulatedExportView {
  return {
    id: simulatedExport.id,
    spotId: simulatedExport.spotId,
    state: simulatedExport.state,
    request: structuredClone(simulatedExport.request),
    createdAt: simulatedExport.createdAt,
    finishesAt: simulatedExport.finishesAt,
    links: [...simulatedExport.links],
  };
}
