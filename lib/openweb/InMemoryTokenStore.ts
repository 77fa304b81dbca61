import type { TokenStore, UpstreamToken } from './TokenStore';

export interface InMemoryTokenStoreOptions {
  /** Clock for lease expiry (epoch ms). */
  now?: () => number;
}

/** A `TokenStore` for one process (tests, local mode, or a single container). */
export class InMemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, UpstreamToken>();
  private readonly leaseExpiries = new Map<string, number>();
  private readonly now: () => number;

  constructor(options: InMemoryTokenStoreOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async get(spotId: string): Promise<UpstreamToken | undefined> {
    const token = this.tokens.get(spotId);
    return token === undefined ? undefined : { ...token };
  }

  async put(spotId: string, token: UpstreamToken): Promise<void> {
    this.tokens.set(spotId, { ...token });
    // The refresh is done: a later rejection must not wait for this lease to lapse.
    this.leaseExpiries.delete(spotId);
  }

  async invalidate(spotId: string, token: string): Promise<void> {
    if (this.tokens.get(spotId)?.token === token) this.tokens.delete(spotId);
  }

  async acquireRefreshLease(spotId: string, leaseMs: number): Promise<boolean> {
    const nowMs = this.now();
    const expiresAt = this.leaseExpiries.get(spotId);
    if (expiresAt !== undefined && expiresAt > nowMs) return false;
    this.leaseExpiries.set(spotId, nowMs + leaseMs);
    return true;
  }

  async releaseRefreshLease(spotId: string): Promise<void> {
    this.leaseExpiries.delete(spotId);
  }
}
