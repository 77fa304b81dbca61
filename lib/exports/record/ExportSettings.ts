import { type FunctionConfig, readFunctionConfig } from '../../settings/functionConfig';

/**
 * Tunables of the export lifecycle, units in the names: the configurable ones are the settings
 * table's `exports.` rows (lib/settings/settingsTable.ts, where each one's range and default
 * are, and settingDescriptions.ts what it does); the rest are fixed below.
 */
export type ExportSettings = FunctionConfig['exports'] & {
  /**
   * How long a start may take between taking the spot and recording its export: a lock with no
   * export record older than this belongs to a start that died, and the next start takes it over.
   */
  startLockLeaseSeconds: number;
  /** A concurrent start's claim on the upstream create older than this is treated as a crash. */
  createClaimTimeoutSeconds: number;
  /** Whether COMPLETED exports are archived; their window counts as covered once archived (else once COMPLETED). */
  archiving: boolean;
  /**
   * The configured spots, each with how far behind the clock its covered hours may fall before it
   * is stale, in seconds (`null`: no target, never stale). Absent: no spot is configured.
   */
  freshnessTargets?: Readonly<Record<string, number | null>>;
};

/** The lifecycle settings no one configures. */
export const FIXED_EXPORT_SETTINGS = {
  startLockLeaseSeconds: 5 * 60,
  createClaimTimeoutSeconds: 2 * 60,
  // The functions always archive; only the local runtime may be told not to.
  archiving: true,
} as const satisfies Omit<ExportSettings, keyof FunctionConfig['exports']>;

/** The export lifecycle's settings with every configurable one at its default. */
export const DEFAULT_EXPORT_SETTINGS: ExportSettings = {
  ...readFunctionConfig({}).config.exports,
  ...FIXED_EXPORT_SETTINGS,
};
