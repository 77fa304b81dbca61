import { describe, expect, it } from 'vitest';
import type { ErasureRecord } from '../../../../../lib/exports/erasure/ErasureRecord';
import { resumeLapsedErasures } from '../../../../../lib/exports/erasure/resumeLapsedErasures';
import { RecordingErasureWorkflows } from './fakeErasures';

const NOW = Date.parse('2026-11-01T01:00:00Z');

function running(erasureId: string, leaseUntil?: string): ErasureRecord {
  return {
    spotId: 'sp_a',
    erasureId,
    userId: 'u_1',
    status: 'RUNNING',
    requestedAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:10:00.000Z',
    exportsDone: [],
    filesRead: 0,
    files: [],
    version: 3,
    ...(leaseUntil !== undefined && { leaseUntil, runId: erasureId }),
  };
}

describe('resumeLapsedErasures', () => {
  it('starts a new execution for each erasure nobody held since before the grace, once per lapsed state', async () => {
    // Prepare
    const asked: { before: string; limit: number }[] = [];
    const lapsed = [
      running(`er_${'a'.repeat(24)}`, '2026-11-01T00:30:00.000Z'),
      running(`er_${'b'.repeat(24)}`),
    ];
    const erasures = {
      findRunning: async (before: string, limit: number) => {
        asked.push({ before, limit });
        return lapsed;
      },
    };
    const erasureWorkflows = new RecordingErasureWorkflows();

    // Act
    const first = await resumeLapsedErasures({ erasures, erasureWorkflows, now: () => NOW }, 900, 10);
    await resumeLapsedErasures({ erasures, erasureWorkflows, now: () => NOW }, 900, 10);

    // Assess
    expect(asked[0]).toEqual({ before: '2026-11-01T00:45:00.000Z', limit: 10 });
    expect(first).toEqual({ erasuresResumed: 2, erasureResumeFailures: 0 });
    expect(erasureWorkflows.started.map((start) => start.executionName)).toEqual([
      `er_${'a'.repeat(24)}-r${Date.parse('2026-11-01T00:30:00Z') / 1000}`,
      `er_${'b'.repeat(24)}-r${Date.parse('2026-11-01T00:10:00Z') / 1000}`,
    ]);
    expect(erasureWorkflows.started[0]?.input).toMatchObject({
      passes: 0,
      runId: erasureWorkflows.started[0]?.executionName,
    });
  });

  it('counts a start that failed and goes on: the next sweep finds it again', async () => {
    // Prepare
    const erasureWorkflows = new RecordingErasureWorkflows();
    erasureWorkflows.refuse = new Error('throttled');

    // Act
    const summary = await resumeLapsedErasures(
      {
        erasures: { findRunning: async () => [running(`er_${'c'.repeat(24)}`)] },
        erasureWorkflows,
        now: () => NOW,
      },
      900,
    );

    // Assess
    expect(summary).toEqual({ erasuresResumed: 0, erasureResumeFailures: 1 });
  });
});
