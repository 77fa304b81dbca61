import { describe, expect, it } from 'vitest';
import { ErasureStatus } from '../../../../../lib/exports/erasure/ErasureRecord';
import { InvalidUserIdError } from '../../../../../lib/exports/erasure/errors';
import { requestErasure } from '../../../../../lib/exports/erasure/requestErasure';
import { captureError } from '../../../../support/captureError';
import { InMemoryErasureStore, inMemorySuppressions } from './fakeErasures';

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
    const deps = { erasures, suppressions: inMemorySuppressions(log), now: () => NOW };

    // Act
    const first = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });
    const second = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });

    // Assess
    expect(log).toEqual(['suppress sp_a u_1', 'create', 'suppress sp_a u_1', 'create']);
    expect(first).toMatchObject({ created: true, record: { status: ErasureStatus.RUNNING, userId: 'u_1' } });
    expect(second).toEqual({ created: false, record: first.record });
    expect(erasures.records.size).toBe(1);
  });

  it('refuses a user id that is no upstream id before writing anything', async () => {
    // Prepare
    const log: string[] = [];
    const deps = {
      erasures: new InMemoryErasureStore(),
      suppressions: inMemorySuppressions(log),
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
    const deps = { erasures, suppressions: inMemorySuppressions([]), now: () => NOW };
    const { record } = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });
    await erasures.save({ ...record, status: ErasureStatus.FAILED, reason: 'the check found 1 row' });

    // Act
    const again = await requestErasure(deps, { spotId: 'sp_a', userId: 'u_1' });

    // Assess
    expect(again.created).toBe(false);
    expect(again.record.status).toBe(ErasureStatus.RUNNING);
    expect(again.record.reason).toBeUndefined();
  });
});
