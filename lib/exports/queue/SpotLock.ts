/** Who holds a spot (the upstream runs one export per spot at a time) and until when. */
export interface SpotLock {
  spotId: string;
  exportId: string;
  acquiredAt: string;
  /** Lease end, epoch seconds; also the item's TTL. A lapsed lease is free to take. */
  expiresAtEpochSeconds: number;
}

export interface AcquireSpotLockOptions {
  /** How long the lock holds without renewal; the adapter's default when omitted. */
  leaseSeconds?: number;
}

/** The spot locks: one holder per spot, conditional writes only. */
export interface SpotLocks {
  /** Free, lapsed, or already held by `exportId` (re-entrant: renews the lease). @throws SpotBusyError */
  acquire(spotId: string, exportId: string, options?: AcquireSpotLockOptions): Promise<SpotLock>;
  /** True when this call released it; false when `exportId` no longer held it. */
  release(spotId: string, exportId: string): Promise<boolean>;
  /** The live lock, if any. */
  get(spotId: string): Promise<SpotLock | undefined>;
}
