/** Who holds a spot (the upstream runs one export per spot at a time) and until when. */
export interface SpotLock {
  spotId: string;
  exportId: string;
  acquiredAt: string;
  /** Lease end, epoch seconds; also the item's TTL. A lapsed lease is free to take. */
  expiresAtEpochSeconds: number;
}
