import { describe, expect, it } from 'vitest';
import { describeTotal } from '../../../../cli/commands/listCommand';
import { describeCost } from '../../../../cli/formatExportView';
import type { ExportView } from '../../../../lib/http/exportViewSchema';
import { exportView } from '../support/exportViews';

function view(requestedAt: string, totalUsd: number): ExportView {
  const base = exportView();
  return exportView({
    status: 'COMPLETED',
    requestedAt,
    cost: { ...base.cost, totalUsd, pricedFor: { region: 'us-east-1', asOf: '2026-11' } },
    usage: { ...base.usage, stateTransitions: 9, taskInvocations: 7 },
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

  it('prints no total for an empty listing', () => {
    // Act / Assess
    expect(describeTotal([])).toBeUndefined();
  });

  it('shows one export’s cost with its counts and where its prices are from', () => {
    // Act / Assess
    expect(describeCost(view('2026-11-01T00:00:00Z', 0.000345))).toBe(
      '$0.000345 est. (9 transitions, 7 invocations; us-east-1 prices of 2026-11)',
    );
  });
});
