import { decodeJwt } from 'jose';
import { TokenUnavailableError } from '../exports/upstream/errors';
import type { TokenStore, UpstreamToken } from './TokenStore';

/** The upstream documents a 24 h token lifetime; assumed when the JWT has no readable `exp`. */
export const DEFAULT_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** When a JWT stops being valid: its `exp` claim, else `DEFAULT_TOKEN_LIFETIME_MS` from `nowMs`. */
export function tokenExpiresAt(jwt: string, nowMs: number): number {
  try {
    const { exp } = decodeJwt(jwt);
    if (typeof exp === 'number' && Number.isFinite(exp)) return exp * 1000;
  } catch {
    // Not a readable JWT: the token is opaque to us, fall back to the documented lifetime.
  }
  return nowMs + DEFAULT_TOKEN_LIFETIME_MS;
}

/** When a JWT was issued (its `iat` claim), or undefined when it has none or is not a JWT. */
export function tokenIssuedAt(jwt: string): number | undefined {
  try {
    const { iat } = decodeJwt(jwt);
    if (typeof iat === 'number' && Number.isFinite(iat)) return iat * 1000;
  } catch {
    // Opaque token: its lifetime is unknown.
  }
  return undefined;
}

/** A token is replaced early by at most this share of its lifetime, so a short-lived token is still used. */
export const MAX_REFRESH_MARGIN_SHARE = 0.5;

export interface TokenProviderOptions {
  store: TokenStore;
  /** Calls the upstream auth endpoint. */
  authenticate: (spotId: string) => Promise<UpstreamToken>;
  /** A token is replaced this long before it expires. */
  refreshMarginMs: number;
  /** How long the fleet-wide refresh lease is held by the process that authenticates. */
  refreshLeaseMs: number;
  /** How often a process that lost the lease looks for the winner's token. */
  storePollIntervalMs: number;
  /** Lease rounds a process waits through before giving up with `TokenUnavailableError`. */
  maxLeaseWaits?: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Told when storing a fresh token failed (the token is still used). */
  onStoreFailure?: (spotId: string, error: unknown) => void;
}

export const DEFAULT_MAX_LEASE_WAITS = 2;

/**
 * One token per spot, shared in-process and fleet-wide. The auth endpoint
 * allows one request per second per IP, so concurrent callers in a process
 * share one lookup (single flight) and processes coordinate through the
 * store's refresh lease: one authenticates, the others wait for its token.
 */
export class TokenProvider {
  private readonly cache = new Map<string, UpstreamToken>();
  private readonly inFlight = new Map<string, Promise<UpstreamToken>>();
  private readonly maxLeaseWaits: number;

  constructor(private readonly options: TokenProviderOptions) {
    if (!(options.storePollIntervalMs > 0)) throw new RangeError('storePollIntervalMs must be > 0');
    this.maxLeaseWaits = options.maxLeaseWaits ?? DEFAULT_MAX_LEASE_WAITS;
  }

  /** A token valid for at least the refresh margin, authenticating only when no process has one. */
  async getToken(spotId: string): Promise<UpstreamToken> {
    const cached = this.cache.get(spotId);
    if (cached !== undefined && this.isFresh(cached)) return cached;
    const pending = this.inFlight.get(spotId);
    if (pending !== undefined) return pending;
    const lookup = this.lookUp(spotId).finally(() => this.inFlight.delete(spotId));
    this.inFlight.set(spotId, lookup);
    return lookup;
  }

  /** Drop a token the upstream rejected (here and in the store) and get another one. */
  async replaceRejectedToken(spotId: string, rejectedToken: string): Promise<UpstreamToken> {
    await this.forget(spotId, rejectedToken);
    const next = await this.getToken(spotId);
    if (next.token !== rejectedToken) return next;
    // A lookup that began before the invalidation may have read the rejected token: look once more.
    await this.forget(spotId, rejectedToken);
    return this.getToken(spotId);
  }

  private async forget(spotId: string, token: string): Promise<void> {
    if (this.cache.get(spotId)?.token === token) this.cache.delete(spotId);
    await this.options.store.invalidate(spotId, token);
  }

  private isFresh(token: UpstreamToken): boolean {
    return token.expiresAt - this.refreshMarginFor(token) > this.options.now();
  }

  /** The configured margin, unless the token lives so briefly that it would never count as fresh. */
  private refreshMarginFor(token: UpstreamToken): number {
    const issuedAt = tokenIssuedAt(token.token);
    if (issuedAt === undefined || !(token.expiresAt > issuedAt)) return this.options.refreshMarginMs;
    return Math.min(this.options.refreshMarginMs, (token.expiresAt - issuedAt) * MAX_REFRESH_MARGIN_SHARE);
  }

  private async lookUp(spotId: string): Promise<UpstreamToken> {
    const { store, refreshLeaseMs } = this.options;
    for (let leaseWaits = 0; leaseWaits <= this.maxLeaseWaits; leaseWaits++) {
      const stored = await store.get(spotId);
      if (stored !== undefined && this.isFresh(stored)) return this.remember(spotId, stored);
      if (await store.acquireRefreshLease(spotId, refreshLeaseMs))
        return this.remember(spotId, await this.refresh(spotId));
      const published = await this.waitForPublishedToken(spotId);
      if (published !== undefined) return this.remember(spotId, published);
    }
    throw new TokenUnavailableError(spotId);
  }

  private async refresh(spotId: string): Promise<UpstreamToken> {
    let token: UpstreamToken;
    try {
      token = await this.options.authenticate(spotId);
    } catch (error) {
      // Without this, every other caller for the spot would wait out the lease before failing too.
      await this.options.store.releaseRefreshLease(spotId).catch(() => undefined);
      throw error;
    }
    try {
      await this.options.store.put(spotId, token);
    } catch (error) {
      // The token is valid even if sharing it failed; failing the call would waste a rate-limited auth.
      this.options.onStoreFailure?.(spotId, error);
    }
    return token;
  }

  /** Poll the store until another process publishes a fresh token, for about one lease. */
  private async waitForPublishedToken(spotId: string): Promise<UpstreamToken | undefined> {
    const { store, sleep, refreshLeaseMs, storePollIntervalMs } = this.options;
    // Counted rather than timed, so a clock that does not move cannot make it spin forever.
    const polls = Math.max(1, Math.ceil(refreshLeaseMs / storePollIntervalMs));
    for (let poll = 0; poll < polls; poll++) {
      await sleep(storePollIntervalMs);
      const stored = await store.get(spotId);
      if (stored !== undefined && this.isFresh(stored)) return stored;
      // The holder gave the lease back without a token (its auth failed): try ourselves now.
      if (await store.acquireRefreshLease(spotId, this.options.refreshLeaseMs)) return this.refresh(spotId);
    }
    return undefined;
  }

  private remember(spotId: string, token: UpstreamToken): UpstreamToken {
    this.cache.set(spotId, token);
    return token;
  }
}
