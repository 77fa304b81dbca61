import { describe, expect, it } from 'vitest';
import { requestErasure } from '../../../lib/exports/erasure/requestErasure';
import { resumeRunningErasures } from '../../../local/resumeRunningErasures';
import {
  InMemoryErasureStore,
  inMemorySuppressions,
  RecordingErasureWorkflows,
} from '../lib/exports/erasure/fakeErasures';

const NOW = Date.parse('2026-11-21T00:00:00Z');

describe('resumeRunningErasures', () => {
  it('starts each RUNNING erasure again under the run its record names, or its first execution’s name', async () => {
    // Prepare: one erasure a dead runtime held (its lease still runs), one never taken up, one done.
    const erasures = new InMemoryErasureStore();
    const request = (userId: string) =>
      requestErasure(
        {
          erasures,
          suppressions: inMemorySuppressions([]),
          erasureWorkflows: new RecordingErasureWorkflows(),
          now: () => NOW,
        },
        { spotId: 'sp_demo', userId },
      );
    const held = (await request('u_held')).record;
    await erasures.save({ ...held, runId: 'er_held-r1', leaseUntil: '2999-01-01T00:00:00.000Z' });
    const fresh = (await request('u_fresh')).record;
    const done = (await request('u_done')).record;
    await erasures.save({ ...done, status: 'COMPLETED' });
    const workflows = new RecordingErasureWorkflows();

    // Act
    const resumed = await resumeRunningErasures(erasures, workflows);

    // Assess
    expect(resumed).toBe(2);
    expect(workflows.started).toEqual([
      {
        executionName: 'er_held-r1',
        input: { spotId: 'sp_demo', erasureId: held.erasureId, runId: 'er_held-r1', passes: 0 },
      },
      {
        executionName: fresh.erasureId,
        input: { spotId: 'sp_demo', erasureId: fresh.erasureId, runId: fresh.erasureId, passes: 0 },
      },
    ]);
  });
});
