/** An upstream JWT for one spot, with the instant (epoch ms) it stops being valid. */
export interface UpstreamToken {
  token: string;
  expiresAt: number;
}

/**
 * Where upstream tokens are shared. The in-memory store serves one process; a
 * fleet-wide store (DynamoDB) lets every container reuse one token per spot,
 * because the auth endpoint allows one request per second per IP.
 */
export interface TokenStore {
  get(spotId: string): Promise<UpstreamToken | undefined>;
  put(spotId: string, token: UpstreamToken): Promise<void>;
  /** Forget a token the upstream rejected, only while it is still the stored one. */
  invalidate(spotId: string, token: string): Promise<void>;
  /**
   * Ask for the right to call the auth endpoint for this spot for `leaseMs`.
   * Exactly one caller across the fleet gets `true` until the lease lapses;
   * the others wait for the token it stores.
   */
  acquireRefreshLease(spotId: string, leaseMs: number): Promise<boolean>;
  /** Give the lease back without a token (the auth call failed), so waiting callers try at once. */
  releaseRefreshLease(spotId: string): Promise<void>;
}
