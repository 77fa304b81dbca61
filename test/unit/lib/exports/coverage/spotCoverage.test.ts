import { describe, expect, it } from 'vitest';
import { type CoverageWindow, WindowState } from '../../../../../lib/exports/coverage/CoverageLedger';
import { spotCoverage } from '../../../../../lib/exports/coverage/spotCoverage';
import type { SpotCoverage } from '../../../../../lib/exports/coverage/spotCoverageSchema';
import { InvalidPaginationTokenError } from '../../../../../lib/exports/record/errors';
import { coverageWindowFixture } from '../../../../support/coverageWindowFixtures';
import { InMemoryCoverageLedger } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const NOW_MS = Date.parse('2026-11-10T12:34:56.789Z');
const at = (hour: number) => Date.parse('2026-11-01T00:00:00Z') + hour * HOUR_MS;
const iso = (hour: number) => new Date(at(hour)).toISOString().replace('.000Z', 'Z');

async function ledgerWith(windows: CoverageWindow[]): Promise<InMemoryCoverageLedger> {
  const ledger = new InMemoryCoverageLedger();
  for (const window of windows) await ledger.claimWindow(window);
  return ledger;
}

const window = (from: number, until: number, state: WindowState = WindowState.COVERED) =>
  coverageWindowFixture({ spotId: SPOT, from: iso(from), until: iso(until), state });

/** Every page of the range, following `nextToken`. */
async function allPages(ledger: InMemoryCoverageLedger, query: Parameters<typeof spotCoverage>[1]) {
  const pages: SpotCoverage[] = [];
  let nextToken: string | undefined;
  do {
    const page = await spotCoverage(
      { coverage: ledger, now: () => NOW_MS },
      { ...query, ...(nextToken !== undefined && { nextToken }) },
    );
    pages.push(page);
    nextToken = page.nextToken;
  } while (nextToken !== undefined && pages.length < 50);
  return pages;
}

describe('spotCoverage', () => {
  it('defaults until to now (to the second) and from to the earliest window', async () => {
    // Prepare
    const ledger = await ledgerWith([window(24, 48), window(0, 24, WindowState.GAP)]);

    // Act
    const coverage = await spotCoverage({ coverage: ledger, now: () => NOW_MS }, { spotId: SPOT });

    // Assess
    expect(coverage.range).toEqual({ from: iso(0), until: '2026-11-10T12:34:56Z' });
    expect(coverage.page).toEqual(coverage.range);
    expect(coverage.summary).toMatchObject({ coveredHours: 24, gapHours: 24 });
    expect(coverage).not.toHaveProperty('nextToken');
  });

  it(`defaults from to until − 30 days when the spot's windows began earlier, or it has none`, async () => {
    // Prepare
    const ledger = await ledgerWith([window(-24 * 60, -24 * 59)]);
    const until = at(24);

    // Act
    const older = await spotCoverage(
      { coverage: ledger, now: () => NOW_MS },
      { spotId: SPOT, untilMs: until },
    );
    const none = await spotCoverage(
      { coverage: new InMemoryCoverageLedger(), now: () => NOW_MS },
      { spotId: SPOT, untilMs: until },
    );

    // Assess
    for (const coverage of [older, none]) {
      expect(coverage.range).toEqual({ from: iso(24 - 30 * 24), until: iso(24) });
      expect(coverage.summary).toMatchObject({ hours: 720, notPlannedHours: 720 });
    }
  });

  it('pages by windows: the pages follow each other, list each window once and add up to the whole range', async () => {
    // Prepare: a day of hourly windows in every state, and one long window over several pages
    const windows = [
      window(0, 30, WindowState.COVERED),
      ...Array.from({ length: 24 }, (_, hour) =>
        window(hour, hour + 1, [WindowState.COVERED, WindowState.IN_FLIGHT, WindowState.GAP][hour % 3]),
      ),
    ];
    const ledger = await ledgerWith(windows);
    const query = { spotId: SPOT, fromMs: at(-2), untilMs: at(36) };

    // Act
    const whole = await spotCoverage({ coverage: ledger, now: () => NOW_MS }, { ...query, limit: 1000 });
    const pages = await allPages(ledger, { ...query, limit: 4 });

    // Assess
    expect(pages.length).toBeGreaterThan(5);
    expect(pages[0]?.page.from).toBe(iso(-2));
    expect(pages.at(-1)?.page.until).toBe(iso(36));
    for (const [index, page] of pages.entries()) {
      expect(page.range).toEqual(whole.range);
      if (index > 0) expect(page.page.from).toBe(pages[index - 1]?.page.until);
    }
    const sum = (key: keyof SpotCoverage['summary']) =>
      Math.round(pages.reduce((total, page) => total + page.summary[key], 0) * 1000) / 1000;
    for (const key of Object.keys(whole.summary) as (keyof SpotCoverage['summary'])[])
      expect(sum(key), key).toBe(whole.summary[key]);
    expect(pages.flatMap((page) => page.gaps.map((gap) => gap.from))).toEqual(
      whole.gaps.map((gap) => gap.from),
    );
    expect(pages.flatMap((page) => page.inFlight.map((entry) => entry.from))).toEqual(
      whole.inFlight.map((entry) => entry.from),
    );
    expect(whole.summary).toMatchObject({ hours: 38, coveredHours: 30, gapHours: 0, notPlannedHours: 8 });
    expect(whole.gaps).toHaveLength(8);
  });

  it('ends a page after its start even when the first windows read all began before it', async () => {
    // Prepare: three windows over the page's start, two after it
    const ledger = await ledgerWith([
      window(-5, 10),
      window(-4, 10),
      window(-3, 10),
      window(5, 6),
      window(8, 9),
    ]);

    // Act
    const pages = await allPages(ledger, { spotId: SPOT, fromMs: at(0), untilMs: at(12), limit: 1 });

    // Assess
    expect(pages.map((page) => page.page)).toEqual([
      { from: iso(0), until: iso(5) },
      { from: iso(5), until: iso(12) },
    ]);
    expect(pages.reduce((total, page) => total + page.summary.coveredHours, 0)).toBe(10);
  });

  it('lists the watermarks of every schedule of the spot, by name', async () => {
    // Prepare
    const ledger = new InMemoryCoverageLedger();
    await ledger.advanceWatermark(SPOT, 'nightly', iso(24), '2026-11-02T00:00:01.000Z');
    await ledger.advanceWatermark(SPOT, 'hourly', iso(30), '2026-11-02T06:00:01.000Z');
    await ledger.advanceWatermark('sp_other', 'hourly', iso(31), '2026-11-02T07:00:01.000Z');

    // Act
    const coverage = await spotCoverage({ coverage: ledger, now: () => NOW_MS }, { spotId: SPOT });

    // Assess
    expect(coverage.watermarks).toEqual([
      { schedule: 'hourly', until: iso(30), updatedAt: '2026-11-02T06:00:01.000Z' },
      { schedule: 'nightly', until: iso(24), updatedAt: '2026-11-02T00:00:01.000Z' },
    ]);
  });

  it('refuses a token of another spot, another range or no token at all', async () => {
    // Prepare
    const ledger = await ledgerWith([window(0, 1), window(1, 2), window(2, 3)]);
    const deps = { coverage: ledger, now: () => NOW_MS };
    const query = { spotId: SPOT, fromMs: at(0), untilMs: at(24), limit: 1 };
    const { nextToken } = await spotCoverage(deps, query);

    // Act
    const attempts = [
      spotCoverage(deps, { ...query, spotId: 'sp_other', nextToken: String(nextToken) }),
      spotCoverage(deps, { ...query, untilMs: at(25), nextToken: String(nextToken) }),
      spotCoverage(deps, { ...query, nextToken: 'Zm9yZ2Vk' }),
    ];
    const followed = await spotCoverage(deps, { spotId: SPOT, nextToken: String(nextToken) });

    // Assess
    expect(nextToken).toBeDefined();
    for (const attempt of attempts) await expect(attempt).rejects.toBeInstanceOf(InvalidPaginationTokenError);
    expect(followed.range).toEqual({ from: iso(0), until: iso(24) });
    expect(followed.page.from).toBe(iso(1));
  });

  it('reads the ledger only for the range asked about', async () => {
    // Prepare
    const ledger = await ledgerWith([window(0, 24), window(24 * 3, 24 * 4)]);

    // Act
    const coverage = await spotCoverage(
      { coverage: ledger, now: () => NOW_MS },
      { spotId: SPOT, fromMs: at(12), untilMs: at(12) + DAY_MS },
    );

    // Assess
    expect(coverage.covered).toEqual([{ from: iso(12), until: iso(24) }]);
    expect(coverage.summary).toMatchObject({ hours: 24, coveredHours: 12, notPlannedHours: 12 });
  });
});
