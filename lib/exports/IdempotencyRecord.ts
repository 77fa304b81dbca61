/** Binds a caller's idempotency key to the export it started. */
export interface IdempotencyRecord {
  spotId: string;
  key: string;
  exportId: string;
  /** Hash of the request body, to tell a retry from a reuse of the key for another request. */
  requestFingerprint: string;
  createdAt: string;
  /** Epoch seconds; also the item's TTL. Past values read as absent. */
  expiresAtEpochSeconds: number;
}
