const MS_PER_SECOND = 1000;
/**
 * A timer may fire slightly before its delay has passed on the clock (timers count from
 * the event loop's cached time), so a slot is waited for again, a bounded number of times.
 */
const MAX_SLOT_WAITS = 3;

export interface RequestRateLimiterOptions {
  /** Above 0; fractions allowed (0.5 = one request every 2 s). */
  requestsPerSecond: number;
  /** Epoch ms. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Spaces request starts at least `1000 / requestsPerSecond` ms apart (rounded up to a whole
 * ms), in arrival order.
 * No bursts (unlike a token bucket): a limit counted over any sliding second on the
 * other side is never exceeded by this process when it is set at or below that limit.
 */
export class RequestRateLimiter {
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #nextSlotAtMs = Number.NEGATIVE_INFINITY;

  constructor(options: RequestRateLimiterOptions) {
    const { requestsPerSecond } = options;
    if (!Number.isFinite(requestsPerSecond) || requestsPerSecond <= 0) {
      throw new RangeError(`requestsPerSecond must be a number > 0, got ${requestsPerSecond}`);
    }
    // Whole milliseconds, rounded up: summed fractions (3/s → 333.33…) would drift below the interval.
    this.#intervalMs = Math.ceil(MS_PER_SECOND / requestsPerSecond);
    this.#now = options.now;
    this.#sleep = options.sleep;
  }

  /** Resolves at this caller's slot: the later of now and one interval after the previous slot. */
  async waitForSlot(): Promise<void> {
    const slotAtMs = Math.max(this.#now(), this.#nextSlotAtMs);
    // Reserved before waiting, so concurrent callers queue behind each other.
    this.#nextSlotAtMs = slotAtMs + this.#intervalMs;
    for (let wait = 0; wait < MAX_SLOT_WAITS; wait++) {
      const remainingMs = slotAtMs - this.#now();
      if (remainingMs <= 0) return;
      await this.#sleep(remainingMs);
    }
  }
}
