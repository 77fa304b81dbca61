import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCoverageHandler } from '../../../functions/coverage';
import { type CoverageWindow, WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import type { SpotCoverage } from '../../../lib/exports/coverage/spotCoverageSchema';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { DynamoDbCoverageLedger } from '../../../lib/store/DynamoDbCoverageLedger';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { apiRequests, lambdaContext, parseResponse, silentLogger } from '../../support/apiGatewayEvents';
import { coverageWindowFixture } from '../../support/coverageWindowFixtures';
import { type DynaliteTable, startDynaliteTable } from '../../support/dynalite';

const SPOT = 'sp_demo';
const OTHER_SPOT = 'sp_other';
const HOUR_MS = 3_600_000;
const NOW_MS = Date.parse('2026-12-01T00:00:00Z');
const at = (hour: number) => Date.parse('2026-11-01T00:00:00Z') + hour * HOUR_MS;
const iso = (hour: number) => new Date(at(hour)).toISOString().replace('.000Z', 'Z');

/**
 * `GET /spots/{spotId}/coverage` through its handler, over the coverage ledger's items in
 * dynalite as the planners, the retries and the archive write them.
 */
describe('the coverage API over the ledger in dynalite', () => {
  let table: DynaliteTable;
  let ledger: DynamoDbCoverageLedger;
  let handler: ReturnType<typeof makeCoverageHandler>;

  beforeEach(async () => {
    table = await startDynaliteTable();
    ledger = new DynamoDbCoverageLedger({ client: table.documentClient, tableName: table.tableName });
    handler = makeCoverageHandler(
      handlerRuntimeFor(
        { coverage: ledger, metrics: new InMemoryExportMetrics(), now: () => NOW_MS },
        { logger: silentLogger() },
      ),
    );
  });

  afterEach(async () => {
    await table.close();
  });

  /** A window planned IN_FLIGHT, then moved to `state` by a conditional update, as the use cases do. */
  async function recordWindow(from: number, until: number, state: WindowState, spotId = SPOT): Promise<void> {
    const planned = coverageWindowFixture({
      spotId,
      from: iso(from),
      until: iso(until),
      state: WindowState.IN_FLIGHT,
    });
    const { created } = await ledger.claimWindow(planned);
    expect(created).toBe(true);
    if (state === WindowState.IN_FLIGHT) return;
    const end: Partial<CoverageWindow> =
      state === WindowState.COVERED
        ? { state, rows: 250, coveredAt: '2026-11-20T00:00:00.000Z' }
        : state === WindowState.RETRYING
          ? {
              state,
              reason: 'the export passed its deadline',
              nextAttemptAt: '2026-12-01T00:10:00.000Z',
              dueAt: '2026-12-01T00:10:00.000Z',
            }
          : { state, reason: 'the upstream refused the request: range not allowed' };
    const updated = await ledger.updateWindow(spotId, planned.from, planned.until, {
      expectedExportId: planned.exportId,
      expectedStates: [WindowState.IN_FLIGHT],
      changes: end,
    });
    expect(updated?.state).toBe(state);
  }

  async function coverage(query: Record<string, string>, spotId = SPOT) {
    return parseResponse(await handler(apiRequests.coverage(spotId, query), lambdaContext()));
  }

  it('answers from the items: covered, in flight, retrying, a gap, a watermark, and a window begun before the range', async () => {
    // Prepare: a month-long window that began 700 h before the range, then a day of windows in every state
    await recordWindow(-700, 6, WindowState.COVERED);
    await recordWindow(6, 12, WindowState.COVERED);
    await recordWindow(12, 14, WindowState.IN_FLIGHT);
    await recordWindow(14, 16, WindowState.RETRYING);
    await recordWindow(16, 20, WindowState.GAP);
    await recordWindow(0, 24, WindowState.COVERED, OTHER_SPOT);
    await ledger.advanceWatermark(SPOT, 'daily', iso(20), '2026-11-01T20:00:01.000Z');

    // Act
    const response = await coverage({ from: iso(0), until: iso(24) });

    // Assess
    const item = await table.documentClient.send(
      new GetCommand({
        TableName: table.tableName,
        Key: { pk: `SPOT#${SPOT}`, sk: `WINDOW#${iso(16)}#${iso(20)}` },
      }),
    );
    expect(item.Item).toMatchObject({
      state: 'GAP',
      reason: 'the upstream refused the request: range not allowed',
    });
    expect(response.statusCode).toBe(200);
    const body = response.body as unknown as SpotCoverage;
    expect(body.covered).toEqual([{ from: iso(0), until: iso(12) }]);
    expect(body.summary).toEqual({
      hours: 24,
      coveredHours: 12,
      inFlightHours: 4,
      gapHours: 4,
      notPlannedHours: 4,
      overlapHours: 0,
      provisionalHours: 0,
      restatementsWaiting: 0,
    });
    expect(body.inFlight.map(({ from, state }) => ({ from, state }))).toEqual([
      { from: iso(12), state: 'IN_FLIGHT' },
      { from: iso(14), state: 'RETRYING' },
    ]);
    expect(body.inFlight[1]).toMatchObject({
      reason: 'the export passed its deadline',
      nextAttemptAt: '2026-12-01T00:10:00.000Z',
    });
    expect(body.gaps).toEqual([
      expect.objectContaining({
        from: iso(16),
        until: iso(20),
        reason: 'the upstream refused the request: range not allowed',
        attempts: 1,
        openHours: 4,
      }),
    ]);
    expect(body.watermarks).toEqual([
      { schedule: 'daily', until: iso(20), updatedAt: '2026-11-01T20:00:01.000Z' },
    ]);
  });

  it("pages through the ledger's pages with nextToken, and the pages add up to the range", async () => {
    // Prepare: three days of hourly windows, every fifth one a gap
    for (let hour = 0; hour < 72; hour += 1)
      await recordWindow(hour, hour + 1, hour % 5 === 4 ? WindowState.GAP : WindowState.COVERED);
    const range = { from: iso(0), until: iso(72) };

    // Act
    const whole = (await coverage({ ...range, limit: '1000' })).body as unknown as SpotCoverage;
    const pages: SpotCoverage[] = [];
    let nextToken: string | undefined;
    do {
      const response = await coverage({
        ...range,
        limit: '10',
        ...(nextToken !== undefined && { nextToken }),
      });
      expect(response.statusCode).toBe(200);
      const page = response.body as unknown as SpotCoverage;
      pages.push(page);
      nextToken = page.nextToken;
    } while (nextToken !== undefined && pages.length < 20);

    // Assess
    expect(pages).toHaveLength(8);
    expect(pages.map((page) => page.page.from)).toEqual([0, 9, 18, 27, 36, 45, 54, 63].map(iso));
    expect(pages.reduce((hours, page) => hours + page.summary.coveredHours, 0)).toBe(
      whole.summary.coveredHours,
    );
    expect(pages.reduce((hours, page) => hours + page.summary.gapHours, 0)).toBe(whole.summary.gapHours);
    expect(pages.flatMap((page) => page.gaps.map((gap) => gap.from))).toEqual(
      whole.gaps.map((gap) => gap.from),
    );
    expect(whole.summary).toMatchObject({ hours: 72, coveredHours: 58, gapHours: 14, notPlannedHours: 0 });
    expect(whole.covered).toEqual(
      [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70].map((start) => ({
        from: iso(start),
        until: iso(Math.min(start + 4, 72)),
      })),
    );
  });

  it("shows neither another spot's windows nor its watermarks, and refuses a token of another spot", async () => {
    // Prepare
    for (let hour = 0; hour < 3; hour += 1)
      await recordWindow(hour, hour + 1, WindowState.COVERED, OTHER_SPOT);
    await ledger.advanceWatermark(OTHER_SPOT, 'daily', iso(3), '2026-11-01T03:00:01.000Z');
    const otherPage = await coverage({ from: iso(0), until: iso(24), limit: '1' }, OTHER_SPOT);

    // Act
    const mine = await coverage({ from: iso(0), until: iso(24) });
    const borrowed = await coverage({ nextToken: String(otherPage.body.nextToken) });

    // Assess
    expect(otherPage.body.nextToken).toBeDefined();
    expect(mine.body).toMatchObject({ covered: [], watermarks: [], summary: { notPlannedHours: 24 } });
    expect(borrowed.statusCode).toBe(400);
    expect(borrowed.body.errors).toEqual([
      { field: 'query.nextToken', message: 'is not a token of this listing' },
    ]);
  });
});
