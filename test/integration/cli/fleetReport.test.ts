import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fleetPageViewSchema } from '../../../cli/FleetView';
import { DayState, fleetReportHtml, type SpotReport } from '../../../cli/fleetReport';
import { formatFleet } from '../../../cli/formatFleet';
import { makeCoverageHandler } from '../../../functions/coverage';
import { makeSpotsHandler } from '../../../functions/spots';
import { type CoverageWindow, WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import { spotCoverageSchema } from '../../../lib/exports/coverage/spotCoverageSchema';
import { DEFAULT_EXPORT_SETTINGS } from '../../../lib/exports/record/ExportSettings';
import { type ErasureView, erasureViewSchema } from '../../../lib/http/erasureViewSchema';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { DynamoDbBackfillStore } from '../../../lib/store/DynamoDbBackfillStore';
import { DynamoDbCoverageLedger } from '../../../lib/store/DynamoDbCoverageLedger';
import { DynamoDbExportStore } from '../../../lib/store/DynamoDbExportStore';
import { DynamoDbSpotLocks } from '../../../lib/store/DynamoDbSpotLocks';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import {
  apiEvent,
  apiRequests,
  lambdaContext,
  parseResponse,
  silentLogger,
} from '../../support/apiGatewayEvents';
import { coverageWindowFixture } from '../../support/coverageWindowFixtures';
import { type DynaliteTable, startDynaliteTable } from '../../support/dynalite';

const DAY_MS = 24 * 3_600_000;
const DAYS = 7;
/** Noon of the report's last day: the period is its six days before and that day. */
const NOW_MS = Date.parse('2026-12-07T12:00:00Z');
const FROM_MS = Date.parse('2026-12-01T00:00:00Z');
const day = (index: number) => new Date(FROM_MS + index * DAY_MS).toISOString().slice(0, 10);
const at = (index: number, hour = 0) =>
  new Date(FROM_MS + index * DAY_MS + hour * 3_600_000).toISOString().replace('.000Z', 'Z');
/** Where the screenshot is left for a person to look at (gitignored). */
/** An export's estimated cost in the report's input. */
const COST_PER_EXPORT_USD = 0.0002;
const OUTPUT_DIR = join(LOCAL_PROJECT_ROOT, 'test-output', 'fleet-report');
const BROWSER_TIMEOUT_MS = 120_000;

/** Each spot's windows by day: the ledger's state the heatmap must show for that day. */
const LEDGER: Record<string, [dayIndex: number, state: WindowState][]> = {
  sp_alpha: [0, 1, 2, 3, 4, 5].map((index) => [index, WindowState.COVERED]),
  sp_beta: [
    [0, WindowState.COVERED],
    [1, WindowState.GAP],
    [2, WindowState.COVERED],
    [6, WindowState.IN_FLIGHT],
  ],
  sp_gamma: [],
};

/** sp_alpha's one erasure, as the API answers it: the report shows it, never the user's id. */
const ERASED_USER = 'user-7';
const ERASURE: ErasureView = erasureViewSchema.parse({
  erasureId: 'er_0123456789abcdef01234567',
  spotId: 'sp_alpha',
  userId: ERASED_USER,
  status: 'COMPLETED',
  requestedAt: '2026-12-06T09:00:00Z',
  updatedAt: '2026-12-06T09:02:00Z',
  completedAt: '2026-12-06T09:02:00Z',
  exportsDone: 3,
  filesRead: 3,
  filesRewritten: 2,
  rowsRemoved: 17,
  files: [],
});

/** Covered windows with a restatement still to come (P7D after their end): provisional days. */
const PROVISIONAL: Record<string, number[]> = { sp_alpha: [5] };

const EXPECTED_DAY_STATE: Record<WindowState, DayState> = {
  COVERED: DayState.COVERED,
  GAP: DayState.GAP,
  IN_FLIGHT: DayState.IN_FLIGHT,
  RETRYING: DayState.IN_FLIGHT,
};

/**
 * The fleet report, built from what `GET /spots` and the coverage API answer over the ledger in
 * dynalite, opened in a real browser (Chromium from npm): it renders without a console error or a
 * request, and shows one cell per spot and day in the ledger's state.
 */
describe('the fleet report in a browser', () => {
  let table: DynaliteTable;
  let browser: Browser;
  let html: string;
  let fleetText: string;

  beforeAll(async () => {
    browser = await puppeteer.launch({
      args: chromium.args,
      executablePath: await chromium.executablePath(),
      headless: true,
    });
  }, BROWSER_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    table = await startDynaliteTable();
    const options = { client: table.documentClient, tableName: table.tableName };
    const ledger = new DynamoDbCoverageLedger(options);
    for (const [spotId, windows] of Object.entries(LEDGER)) {
      for (const [index, state] of windows) {
        const window: CoverageWindow = coverageWindowFixture({
          spotId,
          from: at(index),
          until: at(index + 1),
          state,
          ...(PROVISIONAL[spotId]?.includes(index) === true && { restate: ['P7D'] }),
        });
        await ledger.claimWindow(window);
      }
    }
    const deps = {
      store: new DynamoDbExportStore(options),
      coverage: ledger,
      spotLocks: new DynamoDbSpotLocks({ ...options, now: () => NOW_MS }),
      backfills: new DynamoDbBackfillStore(options),
      settings: {
        ...DEFAULT_EXPORT_SETTINGS,
        freshnessTargets: { sp_alpha: 48 * 3600, sp_beta: 48 * 3600, sp_gamma: null },
      },
      metrics: new InMemoryExportMetrics(),
      now: () => NOW_MS,
    };
    const runtime = handlerRuntimeFor(deps, { logger: silentLogger() });
    const spotsPage = fleetPageViewSchema.parse(
      parseResponse(await makeSpotsHandler(runtime)(apiEvent({ route: '/spots' }), lambdaContext())).body,
    );
    const coverageHandler = makeCoverageHandler(runtime);
    const spots: SpotReport[] = [];
    for (const status of spotsPage.items) {
      const response = await coverageHandler(
        apiRequests.coverage(status.spotId, { from: at(0), until: at(6, 12) }),
        lambdaContext(),
      );
      spots.push({
        status,
        coverage: spotCoverageSchema.parse(parseResponse(response).body),
        backfills: [],
        erasures: status.spotId === ERASURE.spotId ? [ERASURE] : [],
        // The period's cost as the report command sums it from export views (checked end to end in e2e/fleet).
        cost: { exports: spots.length + 1, totalUsd: (spots.length + 1) * COST_PER_EXPORT_USD },
      });
    }
    fleetText = formatFleet(spotsPage.items, { colour: false, nowMs: NOW_MS });
    html = fleetReportHtml({
      spots,
      fromMs: FROM_MS,
      days: DAYS,
      generatedAtMs: NOW_MS,
      apiUrl: 'http://127.0.0.1:3000',
    });
  });

  afterEach(async () => {
    await table.close();
  });

  it(
    'renders with no console error and no request, one cell per spot and day in the ledger’s state, and leaves a screenshot',
    async () => {
      // Prepare
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warn') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(String(error)));
      const requests: string[] = [];
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) requests.push(request.url());
        void request.continue();
      });
      mkdirSync(OUTPUT_DIR, { recursive: true });
      const file = join(OUTPUT_DIR, 'fleet.html');
      writeFileSync(file, html);

      // Act
      await page.goto(`file://${file}`, { waitUntil: 'load' });
      const cells = await page.$$eval('td.cell', (elements) =>
        elements.map((element) => ({
          spot: element.getAttribute('data-spot'),
          day: element.getAttribute('data-day'),
          state: element.getAttribute('data-state'),
          // The browser's own function (the project's types have no DOM).
          painted: (
            globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
          ).getComputedStyle(element).backgroundColor,
        })),
      );
      const costs = await page.$$eval('td[data-cost-usd]', (elements) =>
        elements.map((element) => Number(element.getAttribute('data-cost-usd'))),
      );
      const totalCost = await page.$eval('p.cost', (element) => ({
        usd: Number(element.getAttribute('data-total-usd')),
        text: element.textContent ?? '',
      }));
      const erasureRows = await page.$$eval('tr[data-erasure]', (elements) =>
        elements.map((element) => element.textContent ?? ''),
      );
      const pageText = await page.$eval('body', (element) => element.textContent ?? '');
      await page.setViewport({ width: 1000, height: 600 });
      await page.screenshot({ path: join(OUTPUT_DIR, 'fleet.png'), fullPage: true });
      await page.close();

      // Assess
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      expect(cells).toHaveLength(Object.keys(LEDGER).length * DAYS);
      for (const [spotId, windows] of Object.entries(LEDGER)) {
        for (let index = 0; index < DAYS; index += 1) {
          const window = windows.find(([windowDay]) => windowDay === index);
          const expected =
            window === undefined
              ? DayState.NOT_PLANNED
              : PROVISIONAL[spotId]?.includes(index) === true
                ? DayState.PROVISIONAL
                : EXPECTED_DAY_STATE[window[1]];
          expect({
            spotId,
            day: day(index),
            state: cells.find((c) => c.spot === spotId && c.day === day(index))?.state,
          }).toEqual({
            spotId,
            day: day(index),
            state: expected,
          });
        }
      }
      // Each state is painted in its own colour, provisional days among them.
      const colours = new Map(cells.map((cell) => [cell.state, cell.painted]));
      expect(colours.has(DayState.PROVISIONAL)).toBe(true);
      expect(new Set(colours.values()).size).toBe(colours.size);
      // The fleet command says how many covered hours are provisional, for that spot only.
      expect(fleetText).toMatch(/sp_alpha .* · 24 h provisional/);
      expect(fleetText).not.toMatch(/sp_beta .*provisional/);
      // Each spot's cost for the period, and their sum in the cost line.
      expect(costs).toHaveLength(Object.keys(LEDGER).length);
      const sum = costs.reduce((total, usd) => total + usd, 0);
      expect(totalCost.usd).toBeCloseTo(sum, 10);
      expect(totalCost.text).toContain(`cost an estimated $${sum.toFixed(4)}`);
      // The erasure is listed with what it removed, and the person's id is nowhere on the page.
      expect(erasureRows).toHaveLength(1);
      expect(erasureRows[0]).toContain('COMPLETED');
      expect(erasureRows[0]).toContain('2 of 3 files rewritten, 17 rows removed');
      expect(pageText).not.toContain(ERASED_USER);
      // Worst first: the spot with a gap heads the heatmap.
      expect(cells[0]?.spot).toBe('sp_beta');
    },
    BROWSER_TIMEOUT_MS,
  );
});
