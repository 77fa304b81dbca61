import { type AuthPacer, type AuthSlot, authPacingIntervalMs } from './AuthPacer';

export interface InMemoryAuthPacerOptions {
  requestsPerSecond: number;
  /** Epoch ms. */
  now?: () => number;
}

/** Auth pacing within one process (tests, single-process tools). */
export class InMemoryAuthPacer implements AuthPacer {
  readonly intervalMs: number;
  readonly #now: () => number;
  #nextFreeAtMs = Number.NEGATIVE_INFINITY;

  constructor(options: InMemoryAuthPacerOptions) {
    this.intervalMs = authPacingIntervalMs(options.requestsPerSecond);
    this.#now = options.now ?? Date.now;
  }

  async acquireSlot(maxWaitMs: number): Promise<AuthSlot> {
    const nowMs = this.#now();
    const slotMs = Math.max(nowMs, this.#nextFreeAtMs);
    if (slotMs - nowMs > maxWaitMs) return { granted: false, nextFreeAtMs: slotMs };
    this.#nextFreeAtMs = slotMs + this.intervalMs;
    return { granted: true, sendAtMs: slotMs };
  }
}
