import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { type DynaliteTable, startDynaliteTable } from './dynalite';

/** What an adapter on the table is built with. */
export interface TableOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** One test file's dynalite table, with the clock its adapters read and a spot per test. */
export interface DynaliteFixture {
  /** The table, once the file's tests have started. */
  readonly table: DynaliteTable;
  readonly tableOptions: TableOptions;
  /** Epoch ms, as the adapters read it; a test moves it. */
  nowMs: number;
  readonly now: () => number;
  /** A spot of the test's own, so tests cannot see each other's items; sets the clock back to its start. */
  freshSpot(): string;
}

export interface DynaliteFixtureOptions {
  /** Each fresh spot is this and a number, e.g. `sp_lock` → `sp_lock_1`. */
  spotPrefix: string;
  /** Where the clock starts, and where each fresh spot sets it back to; 2025-01-01 unless given. */
  startMs?: number;
}

/**
 * Starts a dynalite table before the file's tests and closes it after them (vitest's
 * beforeAll/afterAll of the calling file); `onStart` builds the adapters under test on it.
 */
export function useDynaliteTable(
  options: DynaliteFixtureOptions,
  onStart: (fixture: DynaliteFixture) => void = () => {},
): DynaliteFixture {
  const startMs = options.startMs ?? Date.UTC(2025, 0, 1);
  let table: DynaliteTable | undefined;
  let spotCounter = 0;
  const started = (): DynaliteTable => {
    if (table === undefined) throw new Error('the dynalite table is used before the tests started');
    return table;
  };
  const fixture: DynaliteFixture = {
    get table() {
      return started();
    },
    get tableOptions() {
      const { documentClient, tableName } = started();
      return { client: documentClient, tableName };
    },
    nowMs: startMs,
    now: () => fixture.nowMs,
    freshSpot: () => {
      fixture.nowMs = startMs;
      spotCounter += 1;
      return `${options.spotPrefix}_${spotCounter}`;
    },
  };
  beforeAll(async () => {
    table = await startDynaliteTable();
    onStart(fixture);
  });
  afterAll(async () => {
    await table?.close();
  });
  return fixture;
}
