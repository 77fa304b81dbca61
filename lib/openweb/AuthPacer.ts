/** OpenWeb documents one auth request per second per client address. */
export const DOCUMENTED_AUTH_REQUESTS_PER_SECOND = 1;

const MS_PER_SECOND = 1000;

/**
 * Slots are spaced this share wider than 1 / rate: requests sent exactly one
 * second apart can arrive closer (connection setup, scheduling), and the
 * upstream counts arrivals in a sliding second.
 */
export const AUTH_PACING_MARGIN_SHARE = 0.1;

/** Milliseconds between two auth requests at `requestsPerSecond`, margin included. */
export function authPacingIntervalMs(requestsPerSecond: number): number {
  if (!(requestsPerSecond > 0) || !Number.isFinite(requestsPerSecond))
    throw new RangeError('Auth requests per second must be a finite number > 0');
  return Math.ceil((MS_PER_SECOND / requestsPerSecond) * (1 + AUTH_PACING_MARGIN_SHARE));
}

/** A reserved slot (send at `sendAtMs`), or none soon enough (the next is free at `nextFreeAtMs`). */
export type AuthSlot = { granted: true; sendAtMs: number } | { granted: false; nextFreeAtMs: number };

/**
 * Paces auth requests across every process that shares it, so the fleet as a
 * whole stays under the upstream's per-address auth limit. Slots are handed
 * out one pacing interval apart; a slot is reserved only when it starts within
 * the caller's `maxWaitMs`, so a caller that cannot wait leaves it to others.
 */
export interface AuthPacer {
  /** Time between two slots. */
  readonly intervalMs: number;
  /** Epoch ms are the pacer's clock; `maxWaitMs` counts from now. */
  acquireSlot(maxWaitMs: number): Promise<AuthSlot>;
}
