import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoverageWindow, WindowState } from '../../../../lib/exports/coverage/CoverageLedger';
import { DynamoDbCoverageLedger } from '../../../../lib/store/DynamoDbCoverageLedger';
import { coverageWindowFixture } from '../../../support/coverageWindowFixtures';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';

const SPOT = 'sp_demo';
const HOUR_MS = 3_600_000;
/** Windows of 10 hours back to back: 1,000 hours, more than a window's longest reach (730 h). */
const WINDOW_HOURS = 10;
const WINDOWS = 100;
const at = (hour: number) => Date.parse('2026-01-01T00:00:00Z') + hour * HOUR_MS;
const iso = (hour: number) => new Date(at(hour)).toISOString().replace('.000Z', 'Z');

let table: DynaliteTable;
let ledger: DynamoDbCoverageLedger;
let requests = 0;

beforeAll(async () => {
  table = await startDynaliteTable();
  // Counts the requests the ledger sends to the table.
  const counting = {
    send: (command: unknown) => {
      requests += 1;
      return table.documentClient.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  ledger = new DynamoDbCoverageLedger({ client: counting, tableName: table.tableName });
  for (let index = 0; index < WINDOWS; index += 1) {
    await ledger.claimWindow(
      coverageWindowFixture({
        spotId: SPOT,
        from: iso(index * WINDOW_HOURS),
        until: iso((index + 1) * WINDOW_HOURS),
        state: WindowState.COVERED,
      }),
    );
  }
});

afterAll(async () => {
  await table?.close();
});

describe('DynamoDbCoverageLedger.listWindows', () => {
  it('skips the windows that end before the range in one request, not one per window, on a page of one', async () => {
    // Prepare
    requests = 0;

    // Act: 73 windows before the range start within the longest window's reach, all filtered out
    const page = await ledger.listWindows(SPOT, { from: iso(900), until: iso(1000), limit: 1 });

    // Assess
    expect(page.windows.map((window) => window.from)).toEqual([iso(900)]);
    expect(page.nextToken).toBeDefined();
    expect(requests).toBe(1);
  });

  it('lists every window of the range once, in order, page after page, and the last page has no token', async () => {
    // Prepare
    const seen: CoverageWindow[] = [];
    let nextToken: string | undefined;
    let pages = 0;

    // Act
    do {
      const page = await ledger.listWindows(SPOT, {
        from: iso(95),
        until: iso(1000),
        limit: 7,
        ...(nextToken !== undefined && { nextToken }),
      });
      seen.push(...page.windows);
      nextToken = page.nextToken;
      pages += 1;
    } while (nextToken !== undefined && pages < 100);

    // Assess: the window 90-100 overlaps the range; those before it do not
    expect(seen.map((window) => window.from)).toEqual(
      Array.from({ length: WINDOWS - 9 }, (_, index) => iso((index + 9) * WINDOW_HOURS)),
    );
    expect(pages).toBe(Math.ceil((WINDOWS - 9) / 7));
  });
});

describe('DynamoDbCoverageLedger restatement bookkeeping', () => {
  it("takes a spot's restatements of a day up to the limit, one conditional write each, days apart", async () => {
    // Act
    const taken = [];
    for (let index = 0; index < 3; index += 1)
      taken.push(await ledger.takeRestatementBudget('sp_budget', '2026-11-02', 2));
    const nextDay = await ledger.takeRestatementBudget('sp_budget', '2026-11-03', 2);
    const otherSpot = await ledger.takeRestatementBudget('sp_budget_other', '2026-11-02', 2);
    const none = await ledger.takeRestatementBudget('sp_budget_none', '2026-11-02', 0);

    // Assess
    expect(taken).toEqual([true, true, false]);
    expect([nextDay, otherSpot, none]).toEqual([true, true, false]);
  });

  it("keeps a schedule's restatement ages on its watermark, and a window's versions and restatement", async () => {
    // Act
    await ledger.advanceWatermark('sp_ages', 'hourly', '2026-11-02T00:00:00Z', '2026-11-02T00:00:01.000Z', [
      'P1D',
      'P7D',
    ]);
    await ledger.claimWindow({
      spotId: 'sp_ages',
      from: '2026-11-01T23:00:00Z',
      until: '2026-11-02T00:00:00Z',
      state: 'COVERED',
      source: { kind: 'schedule', schedule: 'hourly' },
      exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0001',
      exportIds: ['ex_01kak3f4v2qz7m9d8c5b4a0001'],
      attempts: 1,
      plannedAt: '2026-11-02T00:00:01.000Z',
      restate: ['P1D', 'P7D'],
      versions: [{ exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0001', exportedAt: '2026-11-02T00:00:05.000Z' }],
    });
    const restating = await ledger.updateWindow('sp_ages', '2026-11-01T23:00:00Z', '2026-11-02T00:00:00Z', {
      changes: {
        restatement: {
          age: 'P1D',
          state: 'IN_FLIGHT',
          exportId: 'ex_01kak3f4v2qz7m9d8c5b4a0002',
          exportIds: ['ex_01kak3f4v2qz7m9d8c5b4a0002'],
          attempts: 1,
          dueSince: '2026-11-03T00:00:00.000Z',
        },
        dueAt: '2026-11-03T00:15:00.000Z',
      },
    });
    const due = await ledger.findDueWindows('2026-11-03T01:00:00.000Z', 10);

    // Assess
    expect((await ledger.listWatermarks('sp_ages'))[0]?.restate).toEqual(['P1D', 'P7D']);
    expect(restating?.state).toBe('COVERED');
    expect(restating?.restate).toEqual(['P1D', 'P7D']);
    expect(restating?.versions).toHaveLength(1);
    expect(restating?.restatement?.exportId).toBe('ex_01kak3f4v2qz7m9d8c5b4a0002');
    expect(due.map((window) => [window.spotId, window.restatement?.state])).toContainEqual([
      'sp_ages',
      'IN_FLIGHT',
    ]);
  });
});
