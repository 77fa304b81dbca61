import { recordWindowOutcome, type WindowOutcomeDependencies } from '../coverage/coverageWindows';
import type { ExportRecord } from '../record/ExportRecord';
import { recordRestatementOutcome } from './recordRestatementOutcome';

/**
 * What an export's end means for the coverage ledger: a restatement's for its window's restatement
 * (the window stays covered), any other date-range export's for its window (covered, retried, a gap).
 */
export async function recordExportOutcome(
  deps: WindowOutcomeDependencies,
  record: ExportRecord,
): Promise<void> {
  if (record.origin?.restatement !== undefined) await recordRestatementOutcome(deps, record);
  else await recordWindowOutcome(deps, record);
}

/**
 * `recordExportOutcome` for callers that must not fail on it (the export's end is recorded
 * already): a failure is counted, and the window's due check settles it later.
 */
export async function recordExportOutcomeLater(
  deps: WindowOutcomeDependencies,
  record: ExportRecord,
): Promise<void> {
  try {
    await recordExportOutcome(deps, record);
  } catch {
    deps.metrics.count('CoverageOutcomesDeferred');
  }
}
