/**
 * Spaces the upstream auth requests of the whole fleet: OpenWeb allows one per second
 * per address, and every Lambda container (or the local runtime) shares that address's
 * budget. `acquire` reserves the next free slot: it resolves at that slot when it is
 * soon, and throws `UpstreamAuthPacedError` (with the wait) when it is not, so a caller
 * such as a workflow task hands the wait to its retry instead of sitting idle.
 */
export interface AuthPacer {
  /** Minimum spacing of auth requests, in ms (1000 / requests per second). */
  readonly intervalMs: number;
  /** @throws UpstreamAuthPacedError when the next free slot is further away than the pacer waits. */
  acquire(spotId: string): Promise<void>;
  /** The upstream refused an auth as too frequent: no slot is handed out before `untilMs`. */
  holdUntil(untilMs: number): Promise<void>;
}

/** How long a caller may wait in process for its auth slot before the wait is handed to its retry. */
export const AUTH_PACER_MAX_WAIT_MS = 2_000;

export const MS_PER_SECOND = 1000;

/**
 * Headroom on the spacing: a slot is reserved before its request travels, and two requests a
 * bare second apart can arrive less than a second apart upstream when the first is slower.
 */
export const AUTH_PACING_HEADROOM = 1.1;

/** The spacing of auth requests for a rate, in ms, with the headroom. */
export function authIntervalMs(requestsPerSecond: number): number {
  if (!(requestsPerSecond > 0)) throw new RangeError('auth requests per second must be > 0');
  return Math.ceil((MS_PER_SECOND / requestsPerSecond) * AUTH_PACING_HEADROOM);
}
