import { describe, expect, it } from 'vitest';
import { estimateExportCost } from '../../../../../lib/exports/cost/exportCost';
import { exportUsage } from '../../../../../lib/exports/cost/exportUsage';
import type { PriceTable } from '../../../../../lib/exports/cost/PriceTable';
import { ArchiveStatus } from '../../../../../lib/exports/record/ExportArchive';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { AWS_PRICE_TABLE } from '../../../../../lib/settings/settingsTable';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';

const MB = 1024 * 1024;

/** A COMPLETED export created at the first attempt, polled `pollCount` times, its 20 MB archived in 3 files. */
function completedExport(pollCount: number) {
  return exportRecordFixture({
    status: ExportStatus.COMPLETED,
    upstreamExportId: 'up_1',
    createAttempts: 1,
    pollCount,
    archive: { status: ArchiveStatus.ARCHIVED, files: [], fileCount: 3, bytes: 20 * MB },
  });
}

describe('estimateExportCost', () => {
  it('prices each count at the settings’ price table, stated for its region and date', () => {
    // Prepare: 4 polls
    const usage = exportUsage(completedExport(4), AWS_PRICE_TABLE);

    // Act
    const cost = estimateExportCost(usage, AWS_PRICE_TABLE);

    // Assess: the counts the workflow's path gives…
    expect(usage).toEqual({
      stateTransitions: 9, // create, first wait, 4 polls, choice, archive, final
      taskInvocations: 7, // start, create, 4 polls, archive
      billedGbSeconds: 0.25 * 0.5 + 5 * 0.5 * 1 + 1 * 2, // start + create and polls + 20 MB archive
      upstreamCalls: 5,
      tableReads: 3 + 2 * 4,
      tableWrites: 8 + 4 + 2,
      archiveBytes: 20 * MB,
      archiveFiles: 6,
    });
    // …priced at November 2026's us-east-1 list prices
    expect(cost.pricedFor).toEqual({ region: 'us-east-1', asOf: '2026-11' });
    expect(cost.stepFunctionsUsd).toBeCloseTo(9 * 0.000025, 12);
    expect(cost.lambdaUsd).toBeCloseTo(7 * 0.0000002 + 4.625 * 0.0000133334, 12);
    expect(cost.dynamoDbUsd).toBeCloseTo(14 * 0.000000625 + 11 * 0.000000125, 12);
    expect(cost.otherUsd).toBeCloseTo(0.000001 + 0.000001 + 3 * 0.000005 + 6 * 0.000005, 12);
    expect(cost.totalUsd).toBeCloseTo(
      cost.stepFunctionsUsd + cost.lambdaUsd + cost.dynamoDbUsd + cost.otherUsd,
      12,
    );
    expect(cost.totalUsd).toBeCloseTo(0.000345, 6);
    expect(cost.archivePerMonthUsd).toBeCloseTo((20 / 1024) * 0.023, 12);
  });

  it('follows the price table: doubling every price doubles the estimate', () => {
    // Prepare
    const usage = exportUsage(completedExport(2), AWS_PRICE_TABLE);
    const doubled = Object.fromEntries(
      Object.entries(AWS_PRICE_TABLE).map(([name, value]) => [
        name,
        typeof value === 'number' && name.endsWith('Usd') ? 2 * value : value,
      ]),
    ) as unknown as PriceTable;

    // Act
    const base = estimateExportCost(usage, AWS_PRICE_TABLE);
    const twice = estimateExportCost(usage, doubled);

    // Assess
    expect(twice.totalUsd).toBeCloseTo(2 * base.totalUsd, 12);
  });

  it('costs nothing for an export still in its queue', () => {
    // Act
    const usage = exportUsage(exportRecordFixture({ status: ExportStatus.QUEUED }), AWS_PRICE_TABLE);

    // Assess
    expect(estimateExportCost(usage, AWS_PRICE_TABLE).totalUsd).toBe(0);
    expect(usage.stateTransitions).toBe(0);
  });
});
