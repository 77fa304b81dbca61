import { UpstreamAuthPacedError } from '../../lib/exports/upstream/errors';
import { AUTH_PACER_MAX_WAIT_MS, type AuthPacer, authIntervalMs } from '../../lib/openweb/AuthPacer';

export interface InMemoryAuthPacerOptions {
  requestsPerSecond: number;
  maxWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Auth pacing within one process (tests, a single container); the fleet uses the table-backed pacer. */
export class InMemoryAuthPacer implements AuthPacer {
  readonly intervalMs: number;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #nextFreeAtMs = 0;

  constructor(options: InMemoryAuthPacerOptions) {
    this.intervalMs = authIntervalMs(options.requestsPerSecond);
    this.#maxWaitMs = options.maxWaitMs ?? AUTH_PACER_MAX_WAIT_MS;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async acquire(spotId: string): Promise<void> {
    const nowMs = this.#now();
    const slotMs = Math.max(nowMs, this.#nextFreeAtMs);
    if (slotMs - nowMs > this.#maxWaitMs) throw new UpstreamAuthPacedError(spotId, slotMs - nowMs);
    this.#nextFreeAtMs = slotMs + this.intervalMs;
    if (slotMs > nowMs) await this.#sleep(slotMs - nowMs);
  }

  async holdUntil(untilMs: number): Promise<void> {
    this.#nextFreeAtMs = Math.max(this.#nextFreeAtMs, untilMs);
  }
}
