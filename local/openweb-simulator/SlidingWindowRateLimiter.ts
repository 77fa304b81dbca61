export const RATE_LIMIT_WINDOW_MS = 1_000;

export type RateLimitAdmission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * At most `requestsPerSecond` admitted calls per key (a client address, a spot) in any sliding
 * second of the simulator's clock; refused calls do not count. 0 disables the limit.
 */
export class SlidingWindowRateLimiter {
  readonly #admittedAt = new Map<string, number[]>();

  constructor(private readonly requestsPerSecond: number) {}

  admit(key: string, now: number): RateLimitAdmission {
    if (this.requestsPerSecond <= 0) {
      return { admitted: true };
    }
    const recent = (this.#admittedAt.get(key) ?? []).filter(
      (admittedAt) => admittedAt > now - RATE_LIMIT_WINDOW_MS && admittedAt <= now,
    );
    if (recent.length >= this.requestsPerSecond) {
      this.#admittedAt.set(key, recent);
      const oldest = recent[0] ?? now;
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + RATE_LIMIT_WINDOW_MS - now) / 1000));
      return { admitted: false, retryAfterSeconds };
    }
    recent.push(now);
    this.#admittedAt.set(key, recent);
    return { admitted: true };
  }
}
