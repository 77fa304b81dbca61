import type { ExportRecord } from '../record/ExportRecord';
import { addCosts, type ExportCost, estimateExportCost } from './exportCost';
import type { ExportsTotal } from './exportCostSchema';
import { addUsage, type ExportUsage, emptyUsage, exportUsage } from './exportUsage';
import type { PriceTable } from './PriceTable';

/** What a set of exports used and cost together (./exportCostSchema.ts). */
export type { ExportsTotal };

/** One export's usage and estimated cost at `prices`. */
export function exportUsageAndCost(
  record: ExportRecord,
  prices: PriceTable,
): { usage: ExportUsage; cost: ExportCost } {
  const usage = exportUsage(record, prices);
  return { usage, cost: estimateExportCost(usage, prices) };
}

/** The sums of the exports' own usage and estimates: a total is exactly what its exports add up to. */
export function totalOfExports(records: readonly ExportRecord[], prices: PriceTable): ExportsTotal {
  let usage = emptyUsage();
  let cost = estimateExportCost(usage, prices);
  for (const record of records) {
    const own = exportUsageAndCost(record, prices);
    usage = addUsage(usage, own.usage);
    cost = addCosts(cost, own.cost);
  }
  const requested = records.map((record) => record.requestedAt).sort();
  return {
    exports: records.length,
    ...(requested.length > 0 && { from: requested[0], until: requested[requested.length - 1] }),
    usage,
    cost,
  };
}
