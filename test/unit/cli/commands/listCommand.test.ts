import { describe, expect, it } from 'vitest';
import { describeTotal } from '../../../../cli/commands/listCommand';
import { type ExportView, exportViewSchema } from '../../../../cli/ExportView';
import { describeCost } from '../../../../cli/formatExportView';

function view(requestedAt: string, totalUsd: number): ExportView {
  return exportViewSchema.parse({
    exportId: `ex_${requestedAt}`,
    spotId: 'sp_cli',
    status: 'COMPLETED',
    requestedAt,
    cost: { totalUsd, pricedFor: { region: 'us-east-1', asOf: '2026-11' } },
    usage: { stateTransitions: 9, taskInvocations: 7 },
  });
}

describe('list', () => {
  it('totals the listed exports’ estimated cost over the period they were requested in', () => {
    // Act
    const total = describeTotal([view('2026-11-02T00:00:00Z', 0.0002), view('2026-11-01T00:00:00Z', 0.0003)]);

    // Assess
    expect(total).toBe(
      'Total: $0.000500 est. for 2 exports requested 2026-11-01T00:00:00Z to 2026-11-02T00:00:00Z\n',
    );
  });

  it('prints no total for a server that does not estimate costs', () => {
    // Act / Assess
    expect(
      describeTotal([exportViewSchema.parse({ exportId: 'ex_1', spotId: 'sp_cli', status: 'QUEUED' })]),
    ).toBeUndefined();
  });

  it('shows one export’s cost with its counts and where its prices are from', () => {
    // Act / Assess
    expect(describeCost(view('2026-11-01T00:00:00Z', 0.000345))).toBe(
      '$0.000345 est. (9 transitions, 7 invocations; us-east-1 prices of 2026-11)',
    );
  });
});
