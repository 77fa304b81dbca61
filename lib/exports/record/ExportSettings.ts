/** Tunables of the export lifecycle, from configuration (defaults: lib/settings). Units are in the names. */
export interface ExportSettings {
  /** Past this since the start, polling gives up: the export is aborted upstream and marked ABORTED. */
  exportDeadlineSeconds: number;
  /** First poll delay when the spot has no history yet. */
  defaultFirstPollDelaySeconds: number;
  /** An API status read within this of the last poll is served from the record. */
  statusFreshnessSeconds: number;
  /** The reconciler repairs active exports not polled for this long. */
  reconcileStaleAfterSeconds: number;
  /** How long an idempotency key keeps answering with the same export. */
  idempotencyTtlSeconds: number;
  /**
   * How long a start may take between taking the spot and recording its export: a lock with no
   * export record older than this belongs to a start that died, and the next start takes it over.
   */
  startLockLeaseSeconds: number;
  /** A concurrent start's claim on the upstream create older than this is treated as a crash. */
  createClaimTimeoutSeconds: number;
  /** Whether COMPLETED exports are archived; their window counts as covered once archived (else once COMPLETED). */
  archiving: boolean;
  /** A coverage window whose export failed for a reason that may pass is exported again this many times. */
  windowRetryAttempts: number;
  /** Before the first retry of a window; each further one waits twice as long. */
  windowRetryCooldownSeconds: number;
}
