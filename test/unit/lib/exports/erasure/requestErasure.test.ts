import { describe, expect, it } from 'vitest';
import { ErasureStatus } from '../../../../../lib/exports/erasure/ErasureRecord';
import { InvalidUserIdError } from '../../../../../lib/exports/erasure/errors';
import { requestErasure } from '../../../../../lib/exports/erasure/requestErasure';
import { captureError } from '../../../../support/captureError';
import { InMemoryErasureStore, inMemorySuppressions, RecordingErasureWorkflows } from './fakeErasures';

const NOW = Date.parse('2026-11-01T00:00:00Z');

describe('requestErasure', () => {
  it('suppresses the user before recording the erasure RUNNING, and answers a repeat with the same erasure', async () => {
    // Prepare
    const log: string[] = [];
    const erasures = new InMemoryErasureStore();
    const create = erasures.create.bind(erasures);
    erasures.create = async (record) => {
      log.push('create');
      return create(record);
    };
    const erasureWorkflows = new RecordingErasureWorkflows();
    const deps = { erasures, suppressions: inMemorySuppressions(log), erasureWorkflows, now: () => NOW };

    // Act
    const first = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });
    const second = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });

    // Assess
    expect(log).toEqual(['suppress sp_a u_1', 'create', 'suppress sp_a u_1', 'create']);
    expect(first).toMatchObject({ created: true, record: { status: ErasureStatus.RUNNING, userId: 'u_1' } });
    expect(second).toEqual({ created: false, record: first.record });
    expect(erasures.records.size).toBe(1);
    // One workflow, named for the erasure, its run the execution.
    const { erasureId } = first.record;
    expect(erasureWorkflows.started).toEqual([
      { executionName: erasureId, input: { spotId: 'sp_a', erasureId, runId: erasureId, passes: 0 } },
    ]);
  });

  it('refuses a user id that is no upstream id before writing anything', async () => {
    // Prepare
    const log: string[] = [];
    const deps = {
      erasures: new InMemoryErasureStore(),
      suppressions: inMemorySuppressions(log),
      erasureWorkflows: new RecordingErasureWorkflows(),
      now: () => NOW,
    };

    // Act
    const error = await captureError(requestErasure(deps, { spotId: 'sp_a', userId: "u_1' or 1=1" }));

    // Assess
    expect(error).toBeInstanceOf(InvalidUserIdError);
    expect((error as InvalidUserIdError).problem).toMatchObject({ type: 'invalid-request' });
    expect(log).toEqual([]);
  });

  it('takes a FAILED erasure of the same user up again', async () => {
    // Prepare
    const erasures = new InMemoryErasureStore();
    const erasureWorkflows = new RecordingErasureWorkflows();
    let nowMs = NOW;
    const deps = { erasures, suppressions: inMemorySuppressions([]), erasureWorkflows, now: () => nowMs };
    const { record } = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });
    await erasures.save({ ...record, status: ErasureStatus.FAILED, reason: 'the check found 1 row' });
    nowMs = NOW + 60_000;

    // Act
    const again = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });

    // Assess
    expect(again.created).toBe(false);
    expect(again.record.status).toBe(ErasureStatus.RUNNING);
    expect(again.record.reason).toBeUndefined();
    // A workflow of its own: the first execution's name is used already.
    const resumeName = `${record.erasureId}-r${(NOW + 60_000) / 1000}`;
    expect(erasureWorkflows.started.map((start) => start.executionName)).toEqual([
      record.erasureId,
      resumeName,
    ]);
    expect(erasureWorkflows.started[1]?.input.runId).toBe(resumeName);
  });

  it('answers a recorded erasure whose workflow could not be started, for the reconciler to start', async () => {
    // Prepare
    const erasures = new InMemoryErasureStore();
    const erasureWorkflows = new RecordingErasureWorkflows();
    erasureWorkflows.refuse = new Error('throttled');
    const deps = { erasures, suppressions: inMemorySuppressions([]), erasureWorkflows, now: () => NOW };

    // Act
    const result = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });

    // Assess
    expect(result.created).toBe(true);
    expect(result.startFailure).toBe(erasureWorkflows.refuse);
    expect(erasures.records.size).toBe(1);
  });
});
