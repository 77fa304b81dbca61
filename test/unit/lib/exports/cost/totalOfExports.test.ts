import { describe, expect, it } from 'vitest';
import { exportUsageAndCost, totalOfExports } from '../../../../../lib/exports/cost/totalOfExports';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { AWS_PRICE_TABLE } from '../../../../../lib/settings/settingsTable';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';

describe('totalOfExports', () => {
  it('adds up its exports’ own usage and estimates, over the period they were requested in', () => {
    // Prepare
    const records = [
      exportRecordFixture({
        status: ExportStatus.COMPLETED,
        upstreamExportId: 'up_1',
        pollCount: 3,
        requestedAt: '2026-11-02T00:00:00.000Z',
      }),
      exportRecordFixture({
        status: ExportStatus.FAILED,
        createAttempts: 4,
        upstreamExportId: 'up_2',
        pollCount: 7,
        requestedAt: '2026-11-01T00:00:00.000Z',
      }),
      exportRecordFixture({ status: ExportStatus.QUEUED, requestedAt: '2026-11-03T00:00:00.000Z' }),
    ];
    const own = records.map((record) => exportUsageAndCost(record, AWS_PRICE_TABLE));

    // Act
    const total = totalOfExports(records, AWS_PRICE_TABLE);

    // Assess
    expect(total.exports).toBe(3);
    expect(total.from).toBe('2026-11-01T00:00:00.000Z');
    expect(total.until).toBe('2026-11-03T00:00:00.000Z');
    for (const field of Object.keys(total.usage) as (keyof typeof total.usage)[]) {
      expect(total.usage[field]).toBeCloseTo(
        own.reduce((sum, { usage }) => sum + usage[field], 0),
        9,
      );
    }
    expect(total.usage.stateTransitions).toBe(1 + 3 + 3 + (4 + 7 + 3));
    expect(total.cost.totalUsd).toBeCloseTo(
      own.reduce((sum, { cost }) => sum + cost.totalUsd, 0),
      12,
    );
    expect(total.cost.totalUsd).toBeGreaterThan(0);
  });

  it('is zero for no exports, with no period', () => {
    // Act
    const total = totalOfExports([], AWS_PRICE_TABLE);

    // Assess
    expect(total).toMatchObject({ exports: 0, cost: { totalUsd: 0 } });
    expect(total.from).toBeUndefined();
  });
});
