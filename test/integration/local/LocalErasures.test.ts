import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErasureStatus, erasureIdOf } from '../../../lib/exports/erasure/ErasureRecord';
import { requestErasure } from '../../../lib/exports/erasure/requestErasure';
import type { ErasureDependencies } from '../../../lib/exports/erasure/runErasure';
import { DynamoDbErasureStore } from '../../../lib/store/DynamoDbErasureStore';
import { DynamoDbSuppressionList } from '../../../lib/store/DynamoDbSuppressionList';
import { erasureAcceptedBy, LocalErasures } from '../../../local/LocalErasures';
import { type DynaliteTable, startDynaliteTable } from '../../support/dynalite';
import { InMemoryExportStore } from '../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const USER = 'u_1';

describe('LocalErasures', () => {
  let table: DynaliteTable;
  let erasures: DynamoDbErasureStore;
  let suppressions: DynamoDbSuppressionList;
  let tracked: Promise<unknown>[];
  let said: string[];

  beforeEach(async () => {
    table = await startDynaliteTable();
    erasures = new DynamoDbErasureStore({ client: table.documentClient, tableName: table.tableName });
    suppressions = new DynamoDbSuppressionList({ client: table.documentClient, tableName: table.tableName });
    tracked = [];
    said = [];
  });

  afterEach(async () => {
    await table.close();
  });

  function localErasures(): LocalErasures {
    const deps: ErasureDependencies = {
      erasures,
      store: new InMemoryExportStore(),
      eraser: {
        eraseFromExport: async () => ({ filesRead: 0, rewritten: [] }),
        checkExport: async () => ({ filesChecked: 0, rowsFound: 0, versionsLeft: 0 }),
      },
      erasureEvents: { publishErasureCompleted: async () => {} },
      now: Date.now,
    };
    return new LocalErasures({
      deps,
      track: (work) => {
        tracked.push(work);
        return work;
      },
      say: (line) => said.push(line),
      stopping: () => false,
    });
  }

  it('runs an accepted erasure to its end in the background, once however often it is started', async () => {
    // Prepare
    const { record } = await requestErasure(
      { erasures, suppressions, now: Date.now },
      { spotId: SPOT, userId: USER },
    );
    const runner = localErasures();

    // Act
    runner.start(SPOT, record.erasureId);
    runner.start(SPOT, record.erasureId);
    await Promise.all(tracked);

    // Assess
    expect(tracked).toHaveLength(1);
    expect((await erasures.get(SPOT, record.erasureId))?.status).toBe(ErasureStatus.COMPLETED);
    expect(said).toEqual([`erasure ${record.erasureId} of ${SPOT} completed: 0 file(s) rewritten`]);
  });

  it('takes up at a start every RUNNING erasure, even one whose lease an earlier runtime still held', async () => {
    // Prepare: a run of an earlier start that died holding its lease.
    const { record } = await requestErasure(
      { erasures, suppressions, now: Date.now },
      { spotId: SPOT, userId: USER },
    );
    await erasures.save({
      ...record,
      runId: 'local-runtime',
      leaseUntil: new Date(Date.now() + 3_600_000).toISOString(),
    });

    // Act
    const resumed = await localErasures().resume();
    await Promise.all(tracked);

    // Assess
    expect(resumed).toBe(1);
    expect((await erasures.get(SPOT, record.erasureId))?.status).toBe(ErasureStatus.COMPLETED);
  });
});

describe('erasureAcceptedBy', () => {
  const post = { routeKey: 'POST /spots/{spotId}/erasures' };
  const erasureId = erasureIdOf(SPOT, USER);
  const accepted = { statusCode: 202, body: JSON.stringify({ spotId: SPOT, erasureId }) };

  it('names the erasure a 202 of the erasure request accepted', () => {
    expect(erasureAcceptedBy(post, accepted)).toEqual({ spotId: SPOT, erasureId });
  });

  it('names none for another route, a refusal or an answer without an erasure', () => {
    expect(erasureAcceptedBy({ routeKey: 'GET /spots/{spotId}/erasures' }, accepted)).toBeUndefined();
    expect(erasureAcceptedBy(post, { statusCode: 400, body: '{}' })).toBeUndefined();
    expect(erasureAcceptedBy(post, { statusCode: 202, body: '{}' })).toBeUndefined();
    expect(erasureAcceptedBy(undefined, accepted)).toBeUndefined();
  });
});
