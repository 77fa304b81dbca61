export const AUTH_RATE_WINDOW_MS = 1_000;

export type AuthAdmission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * The auth endpoint's limit: at most `requestsPerSecond` admitted calls per client address in any
 * sliding second of the simulator's clock; 0 disables the limit.
 */
export class AuthRateLimiter {
  readonly #admittedAt = new Map<string, number[]>();

  constructor(private readonly requestsPerSecond: number) {}

  admit(clientAddress: string, now: number): AuthAdmission {
    if (this.requestsPerSecond <= 0) {
      return { admitted: true };
    }
    const recent = (this.#admittedAt.get(clientAddress) ?? []).filter(
      (admittedAt) => admittedAt > now - AUTH_RATE_WINDOW_MS && admittedAt <= now,
    );
    if (recent.length >= this.requestsPerSecond) {
      this.#admittedAt.set(clientAddress, recent);
      const oldest = recent[0] ?? now;
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + AUTH_RATE_WINDOW_MS - now) / 1000));
      return { admitted: false, retryAfterSeconds };
    }
    recent.push(now);
    this.#admittedAt.set(clientAddress, recent);
    return { admitted: true };
  }
}
