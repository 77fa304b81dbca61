/**
 * Athena's list price for SQL queries, per TB scanned (US East (N. Virginia), as published on
 * the AWS pricing page in November 2026; other regions differ). Failed queries and DDL are not billed;
 * a cancelled query is billed for what it scanned.
 */
export const ATHENA_PRICE_PER_TB_SCANNED_USD = 5;
export const ATHENA_PRICE_SOURCE = 'us-east-1 list price, November 2026';

const MIB = 1024 * 1024;
const TIB = 1024 * 1024 * MIB;
/** Athena bills at least 10 MB per query, rounded up to the next MB. */
export const ATHENA_MIN_BILLED_BYTES = 10 * MIB;

export interface AthenaQueryCost {
  billedBytes: number;
  usd: number;
}

/** What a query that scanned `scannedBytes` is billed: rounded up to the MB, at least 10 MB. */
export function athenaQueryCost(scannedBytes: number): AthenaQueryCost {
  const billedBytes = Math.max(ATHENA_MIN_BILLED_BYTES, Math.ceil(scannedBytes / MIB) * MIB);
  return { billedBytes, usd: (billedBytes / TIB) * ATHENA_PRICE_PER_TB_SCANNED_USD };
}

/** `512 B`, `3.4 KB`, `12.0 MB`, `1.50 GB` (binary units, as Athena bills). */
export function formatScannedBytes(bytes: number): string {
  if (bytes >= 1024 * MIB) return `${(bytes / (1024 * MIB)).toFixed(2)} GB`;
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

/** `$0.000048`: two significant digits, however small. */
export function formatUsd(usd: number): string {
  if (usd >= 0.01) return `$${usd.toFixed(2)}`;
  return `$${usd.toPrecision(2)}`;
}
