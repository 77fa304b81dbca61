import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MAX_COVERAGE_PAGE_WINDOWS } from '../../lib/exports/coverage/spotCoverage';
import type { SpotCoverage } from '../../lib/exports/coverage/spotCoverageSchema';
import type { CliCommand, CommandContext } from '../CliCommand';
import { integerOption, rejectPositionals, stringOption } from '../cliOptions';
import { ExitCode } from '../ExitCode';
import type { ExportsApiClient } from '../ExportsApiClient';
import { CliUsageError } from '../errors';
import { fleetReportHtml, type PeriodCost, type SpotReport } from '../fleetReport';
import { mergeCoveragePages } from '../mergeCoveragePages';
import { COVERAGE_MAX_PAGES } from './coverageCommand';

const NAME = 'report';
const MS_PER_DAY = 24 * 60 * 60 * 1000;
export const DEFAULT_REPORT_DAYS = 30;
/** The coverage API answers at most a year a request. */
export const MAX_REPORT_DAYS = 365;
/** Erasures shown per spot, newest first. */
const REPORT_ERASURES_PER_SPOT = 20;
/** Backfills shown per spot, newest first. */
const REPORT_BACKFILLS_PER_SPOT = 20;
/** The exports listed per page, and the pages read per spot, for the period's cost. */
const REPORT_EXPORTS_PER_PAGE = 100;
const REPORT_EXPORT_PAGES = 50;

export const reportCommand: CliCommand = {
  name: NAME,
  summary: 'Write the fleet as one self-contained HTML page (heatmap, freshness, backfills, erasures)',
  synopsis: 'report --out <file.html> [--days <n>]',
  help: `Writes one HTML file that needs nothing else (no script, font, stylesheet or image is
fetched: it opens from disk and as an e-mail attachment): a heatmap of every spot by UTC day over
the last --days days (a day is a gap when any hour of it was given up on, else in flight, else
covered, else not planned), each spot's freshness against its target, its queue, gaps and last
failure, the spots' backfills with their progress, and their erasures (never the user's id). Exits 0 once written.

Options:
  --out <file>   Where to write the page (required)
  --days <n>     Days up to today included, 1 to ${MAX_REPORT_DAYS} (default ${DEFAULT_REPORT_DAYS})`,
  options: {
    out: { type: 'string' },
    days: { type: 'string' },
  },
  run: runReport,
};

async function runReport(context: CommandContext): Promise<ExitCode> {
  const { io, values } = context;
  rejectPositionals(context, NAME);
  const out = stringOption(values, 'out');
  if (out === undefined) throw new CliUsageError('--out <file.html> is required', NAME);
  const days = integerOption(values, 'days', NAME, { min: 1, max: MAX_REPORT_DAYS }) ?? DEFAULT_REPORT_DAYS;
  const nowMs = io.now();
  // Whole UTC days, today included.
  const fromMs = Math.floor(nowMs / MS_PER_DAY) * MS_PER_DAY - (days - 1) * MS_PER_DAY;
  const untilMs = Math.min(nowMs, fromMs + days * MS_PER_DAY);

  const client = context.client();
  const statuses = await client.listAllSpots();
  const spots: SpotReport[] = [];
  for (const status of statuses) {
    const pages: SpotCoverage[] = [];
    let nextToken: string | undefined;
    do {
      const page = await client.getCoverage(status.spotId, {
        from: new Date(fromMs).toISOString().replace('.000Z', 'Z'),
        until: new Date(Math.floor(untilMs / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
        limit: MAX_COVERAGE_PAGE_WINDOWS,
        ...(nextToken !== undefined && { nextToken }),
      });
      pages.push(page);
      nextToken = page.nextToken;
    } while (nextToken !== undefined && pages.length < COVERAGE_MAX_PAGES);
    const { items } = await client.listBackfills(status.spotId, { limit: REPORT_BACKFILLS_PER_SPOT });
    const erasures = await client.listErasures(status.spotId, { limit: REPORT_ERASURES_PER_SPOT });
    const cost = await periodCost(client, status.spotId, fromMs, untilMs);
    spots.push({
      status,
      coverage: mergeCoveragePages(pages),
      backfills: items,
      erasures: erasures.items,
      cost,
    });
  }
  const html = fleetReportHtml({ spots, fromMs, days, generatedAtMs: nowMs, apiUrl: client.apiUrl });
  const path = resolve(out);
  await writeFile(path, html, 'utf8');
  if (context.json) io.stdout.write(`${JSON.stringify({ out: path, spots: spots.length, days })}\n`);
  else io.stdout.write(`Wrote ${path}: ${spots.length} spot(s) over ${days} day(s).\n`);
  return ExitCode.SUCCESS;
}

/**
 * What a spot's exports requested in [fromMs, untilMs) cost, summed from their views' estimates:
 * the spot's exports come newest first, so the listing stops at the first one before the period.
 */
async function periodCost(
  client: ExportsApiClient,
  spotId: string,
  fromMs: number,
  untilMs: number,
): Promise<PeriodCost> {
  const cost: PeriodCost = { exports: 0, totalUsd: 0 };
  let nextToken: string | undefined;
  for (let pages = 0; pages < REPORT_EXPORT_PAGES; pages += 1) {
    const page = await client.listExports(spotId, {
      limit: REPORT_EXPORTS_PER_PAGE,
      ...(nextToken !== undefined && { nextToken }),
    });
    for (const item of page.items) {
      if (item.requestedAt === undefined) continue;
      const requestedMs = Date.parse(item.requestedAt);
      if (requestedMs < fromMs) return cost;
      if (requestedMs >= untilMs) continue;
      cost.exports += 1;
      cost.totalUsd += item.cost?.totalUsd ?? 0;
      if (cost.pricedFor === undefined && item.cost?.pricedFor !== undefined)
        cost.pricedFor = item.cost.pricedFor;
    }
    nextToken = page.nextToken;
    if (nextToken === undefined) return cost;
  }
  return cost;
}
