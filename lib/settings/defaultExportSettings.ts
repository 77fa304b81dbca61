import type { ExportSettings } from '../exports/record/ExportSettings';
import { SETTINGS } from './settingsTable';

/** A start that took its spot but has not recorded its export after this has died. */
const START_LOCK_LEASE_SECONDS = 5 * 60;
/** A concurrent start's claim on the upstream create older than this is treated as a crash. */
const CREATE_CLAIM_TIMEOUT_SECONDS = 2 * 60;

/** The export lifecycle's settings with every configurable one at its default. */
export const DEFAULT_EXPORT_SETTINGS: ExportSettings = {
  exportDeadlineSeconds: SETTINGS.exportDeadlineSeconds.default,
  defaultFirstPollDelaySeconds: SETTINGS.defaultFirstPollDelaySeconds.default,
  statusFreshnessSeconds: SETTINGS.statusFreshnessSeconds.default,
  reconcileStaleAfterSeconds: SETTINGS.reconcileStaleAfterSeconds.default,
  idempotencyTtlSeconds: SETTINGS.idempotencyTtlSeconds.default,
  startLockLeaseSeconds: START_LOCK_LEASE_SECONDS,
  createClaimTimeoutSeconds: CREATE_CLAIM_TIMEOUT_SECONDS,
  // The functions always archive; only the local runtime may be told not to.
  archiving: true,
  windowRetryAttempts: SETTINGS.windowRetryAttempts.default,
  windowRetryCooldownSeconds: SETTINGS.windowRetryCooldownSeconds.default,
};
