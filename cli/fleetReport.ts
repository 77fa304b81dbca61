import type { SpotCoverage } from '../lib/exports/coverage/spotCoverageSchema';
import type { BackfillView } from '../lib/http/backfillViewSchema';
import type { ErasureView } from '../lib/http/erasureViewSchema';
import type { SpotStatusView } from './FleetView';
import { spotHealth, worstFirst } from './formatFleet';

const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 24 * MS_PER_HOUR;

/**
 * What a heatmap cell says about a spot's day, worst first: one gap hour makes the day a gap; a
 * day with covered hours still to be exported again at their restatement ages is provisional.
 */
export const DayState = {
  GAP: 'gap',
  IN_FLIGHT: 'in-flight',
  PROVISIONAL: 'provisional',
  COVERED: 'covered',
  NOT_PLANNED: 'not-planned',
} as const;

export type DayState = (typeof DayState)[keyof typeof DayState];

const DAY_STATE_LABELS: Record<DayState, string> = {
  gap: 'gap (given up on)',
  'in-flight': 'in flight or retrying',
  provisional: 'covered, provisional (to be exported again)',
  covered: 'covered (archived)',
  'not-planned': 'not planned',
};

/** One spot's data for the report: its status, its coverage over the period, its backfills. */
export interface SpotReport {
  status: SpotStatusView;
  coverage: SpotCoverage;
  backfills: BackfillView[];
  /** The spot's erasures, newest first: shown without the user's id (the page may be sent on). */
  erasures: ErasureView[];
  /** What the spot's exports requested in the period cost, from their views' estimates. */
  cost: PeriodCost;
}

/** The sum of the estimated costs of the exports requested in a period. */
export interface PeriodCost {
  exports: number;
  totalUsd: number;
  /** The price table the estimates used (region, date), when an export said. */
  pricedFor?: { region: string; asOf: string };
}

export interface FleetReportInput {
  spots: SpotReport[];
  /** The period: whole UTC days, `fromMs` at a midnight. */
  fromMs: number;
  days: number;
  generatedAtMs: number;
  apiUrl: string;
}

export interface DayCell {
  day: string;
  state: DayState;
  coveredHours: number;
  inFlightHours: number;
  gapHours: number;
  /** Of the covered hours, those no settled window holds. */
  provisionalHours: number;
}

/** Each day of the period: the hours of the spot's coverage in each state, and the day's state. */
export function dayCells(coverage: SpotCoverage, fromMs: number, days: number): DayCell[] {
  const cells: DayCell[] = [];
  for (let index = 0; index < days; index += 1) {
    const dayFrom = fromMs + index * MS_PER_DAY;
    const dayUntil = dayFrom + MS_PER_DAY;
    const hoursIn = (intervals: readonly { from: string; until: string }[]) =>
      intervals.reduce((sum, interval) => {
        const from = Math.max(Date.parse(interval.from), dayFrom);
        const until = Math.min(Date.parse(interval.until), dayUntil);
        return until > from ? sum + (until - from) / MS_PER_HOUR : sum;
      }, 0);
    const coveredHours = hoursIn(coverage.covered);
    const inFlightHours = hoursIn(coverage.inFlight);
    const gapHours = hoursIn(coverage.gaps.filter((gap) => gap.openHours > 0));
    const provisionalHours = hoursIn(coverage.provisional);
    const state =
      gapHours > 0
        ? DayState.GAP
        : inFlightHours > 0
          ? DayState.IN_FLIGHT
          : provisionalHours > 0
            ? DayState.PROVISIONAL
            : coveredHours > 0
              ? DayState.COVERED
              : DayState.NOT_PLANNED;
    cells.push({
      day: new Date(dayFrom).toISOString().slice(0, 10),
      state,
      coveredHours,
      inFlightHours,
      gapHours,
      provisionalHours,
    });
  }
  return cells;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STYLE = `
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1f2328;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.meta{color:#59636e;margin:0 0 16px}
table{border-collapse:collapse}
th,td{padding:3px 6px;text-align:left;vertical-align:top}
.heatmap td.cell{width:14px;height:14px;padding:0;border:1px solid #fff}
.heatmap th.day{writing-mode:vertical-rl;font-weight:normal;font-size:10px;color:#59636e;padding:2px 0}
.covered{background:#2da44e}.provisional{background:#a6e3b0}.in-flight{background:#54aeff}.gap{background:#cf222e}.not-planned{background:#eaeef2}
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}
.STALE{color:#cf222e;font-weight:600}.GAPS{color:#9a6700;font-weight:600}.OK{color:#1a7f37;font-weight:600}
.status td{border-bottom:1px solid #eaeef2}
.bar{display:inline-block;width:120px;height:8px;background:#eaeef2;vertical-align:middle}
.bar i{display:block;height:8px;background:#2da44e}
`;

/**
 * The fleet report: one self-contained HTML page (inline style, no script, font or image, nothing
 * fetched), which opens from disk and as an e-mail attachment. A heatmap of spots × days, each
 * spot's freshness, its open backfills with their progress, and what exists of the rest.
 */
export function fleetReportHtml(input: FleetReportInput): string {
  const spots = worstFirst(input.spots.map((spot) => spot.status)).map(
    (status) => input.spots.find((spot) => spot.status.spotId === status.spotId) as SpotReport,
  );
  const days = Array.from({ length: input.days }, (_, index) =>
    new Date(input.fromMs + index * MS_PER_DAY).toISOString().slice(0, 10),
  );
  const stale = spots.filter((spot) => spot.status.stale).length;
  const gapped = spots.filter((spot) => !spot.status.stale && spot.status.gaps.count > 0).length;
  const headline =
    spots.length === 0
      ? 'No spots.'
      : stale + gapped === 0
        ? `All ${spots.length} spot(s) fine.`
        : `${stale} stale, ${gapped} with gaps, ${spots.length - stale - gapped} fine (of ${spots.length}).`;

  const heatmapRows = spots
    .map((spot) => {
      const cells = dayCells(spot.coverage, input.fromMs, input.days)
        .map(
          (cell) =>
            `<td class="cell ${cell.state}" data-spot="${escapeHtml(spot.status.spotId)}" data-day="${cell.day}" data-state="${cell.state}" title="${escapeHtml(
              `${spot.status.spotId} ${cell.day}: ${DAY_STATE_LABELS[cell.state]} (covered ${cell.coveredHours.toFixed(1)} h, of which provisional ${cell.provisionalHours.toFixed(1)} h, in flight ${cell.inFlightHours.toFixed(1)} h, gap ${cell.gapHours.toFixed(1)} h)`,
            )}"></td>`,
        )
        .join('');
      return `<tr><th>${escapeHtml(spot.status.spotId)}</th>${cells}</tr>`;
    })
    .join('\n');

  const statusRows = spots
    .map(({ status }) => {
      const health = spotHealth(status);
      const freshness =
        status.coveredUntil === null
          ? 'nothing covered yet'
          : `${status.hoursBehind} h behind, covered until ${status.coveredUntil}`;
      const target = status.freshnessTargetHours === null ? 'none' : `${status.freshnessTargetHours} h`;
      const gaps =
        status.gaps.count === 0
          ? '–'
          : `${status.gaps.count} (${status.gaps.hours} h open), newest: ${status.gaps.newestReason ?? '?'}`;
      const failure =
        status.lastFailure === undefined ? '–' : `${status.lastFailure.at}: ${status.lastFailure.reason}`;
      const { cost } = spots.find((spot) => spot.status.spotId === status.spotId) as SpotReport;
      return `<tr data-spot="${escapeHtml(status.spotId)}"><td class="${health}">${health}</td><td>${escapeHtml(status.spotId)}</td><td>${escapeHtml(freshness)}</td><td>${target}</td><td>${status.queued}</td><td>${escapeHtml(gaps)}</td><td>${escapeHtml(failure)}</td><td data-cost-usd="${cost.totalUsd}">${usd(cost.totalUsd)} (${cost.exports} exports)</td></tr>`;
    })
    .join('\n');
  const totalUsd = spots.reduce((sum, spot) => sum + spot.cost.totalUsd, 0);
  const exportCount = spots.reduce((sum, spot) => sum + spot.cost.exports, 0);
  const pricedFor = spots.find((spot) => spot.cost.pricedFor !== undefined)?.cost.pricedFor;
  const costLine = `The period's ${exportCount} export(s) cost an estimated ${usd(totalUsd)} in AWS charges${
    pricedFor === undefined ? '' : ` (prices of ${pricedFor.region}, ${pricedFor.asOf})`
  }, archive storage apart; each export's view carries its own estimate.`;

  const backfills = spots.flatMap((spot) => spot.backfills);
  const backfillRows = backfills
    .map((backfill) => {
      const { total, done } = backfill.progress.windows;
      const percent = total === 0 ? 100 : Math.round((done / total) * 100);
      return `<tr data-backfill="${escapeHtml(backfill.backfillId)}"><td>${escapeHtml(backfill.spotId)}</td><td>${escapeHtml(backfill.backfillId)}</td><td>${escapeHtml(backfill.from)} – ${escapeHtml(backfill.until)}</td><td>${backfill.status}</td><td><span class="bar"><i style="width:${percent}%"></i></span> ${done}/${total} windows, ${backfill.progress.rowsArchived} rows</td></tr>`;
    })
    .join('\n');

  const erasures = spots.flatMap((spot) => spot.erasures);
  const erasureRows = erasures
    .map(
      (erasure) =>
        `<tr data-erasure="${escapeHtml(erasure.erasureId)}"><td>${escapeHtml(erasure.spotId)}</td><td>${escapeHtml(erasure.erasureId)}</td><td>${erasure.status}${erasure.reason === undefined ? '' : `: ${escapeHtml(erasure.reason)}`}</td><td>${escapeHtml(erasure.requestedAt)}</td><td>${escapeHtml(erasure.completedAt ?? '')}</td><td>${erasure.filesRewritten} of ${erasure.filesRead} files rewritten, ${erasure.rowsRemoved} rows removed</td></tr>`,
    )
    .join('\n');

  const legend = Object.values(DayState)
    .map((state) => `<span class="${state}"></span>${DAY_STATE_LABELS[state]}`)
    .join('');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>openweb-exports fleet report</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Fleet report</h1>
<p class="meta">${escapeHtml(headline)} ${days[0] ?? ''} – ${days.at(-1) ?? ''} (UTC), generated ${new Date(input.generatedAtMs).toISOString()} from ${escapeHtml(input.apiUrl)}.</p>
<h2>Coverage by day</h2>
<p class="legend">${legend}</p>
<table class="heatmap">
<tr><th></th>${days.map((day) => `<th class="day">${day}</th>`).join('')}</tr>
${heatmapRows}
</table>
<h2>Freshness</h2>
<table class="status">
<tr><th>health</th><th>spot</th><th>freshness</th><th>target</th><th>queued</th><th>gaps (30 days)</th><th>last failure</th><th>cost (period)</th></tr>
${statusRows}
</table>
<h2>Cost</h2>
<p class="cost" data-total-usd="${totalUsd}">${escapeHtml(costLine)}</p>
<h2>Backfills</h2>
${backfills.length === 0 ? '<p>No backfills.</p>' : `<table class="backfills">\n<tr><th>spot</th><th>backfill</th><th>range</th><th>status</th><th>progress</th></tr>\n${backfillRows}\n</table>`}
<h2>Erasures</h2>
${erasures.length === 0 ? '<p>No erasures.</p>' : `<table class="erasures">\n<tr><th>spot</th><th>erasure</th><th>status</th><th>requested</th><th>completed</th><th>removed</th></tr>\n${erasureRows}\n</table>`}
</body>
</html>
`;
}

/** `$0.0123`: dollars to a hundredth of a cent, as export costs are small. */
function usd(amount: number): string {
  return `$${amount.toFixed(4)}`;
}
