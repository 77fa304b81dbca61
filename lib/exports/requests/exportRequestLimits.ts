/**
 * The upstream's limits on an export request, enforced before anything is recorded or sent
 * (lib/exports/exportRequestSchema.ts). Apart from the schema, so the code that only plans
 * windows within them does not build it.
 */
export const MAX_EXPORT_RANGE_HOURS = 730;
export const MAX_RECORDS_IN_FILE = 100_000;
export const CSV_DELIMITERS = [',', ';', '|', '\t'] as const;
/**
 * How far past the server's clock a window may end: a caller whose clock runs a little ahead
 * (`--last P1D` ends at the caller's now) is not refused. The same allowance SigV4 gives.
 */
export const FUTURE_WINDOW_ALLOWANCE_SECONDS = 300;
