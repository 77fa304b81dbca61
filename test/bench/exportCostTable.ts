// The cost table of docs/deploying.md: one row per export length and loop of the polling bench,
// priced with the cost model every export's view uses (lib/exports/cost) at the settings' price
// table. `npm run bench:polling` prints it beside its polling table; `npm run docs:costs` writes it
// from docs/performance.md's copy of that polling table, and `npm test` fails while it is stale.
import { estimateExportCost } from '../../lib/exports/cost/exportCost';
import { exportUsage } from '../../lib/exports/cost/exportUsage';
import { ArchiveStatus } from '../../lib/exports/record/ExportArchive';
import { ExportStatus } from '../../lib/exports/record/ExportStatus';
import { AWS_PRICE_TABLE } from '../../lib/settings/settingsTable';
import { exportRecordFixture } from '../support/exportRecordFixtures';

export const PERFORMANCE_DOC = 'docs/performance.md';
export const DEPLOYING_DOC = 'docs/deploying.md';
export const COST_TABLE_COMMAND = 'npm run docs:costs';
export const COST_TABLE_START = `<!-- The table below is written by \`${COST_TABLE_COMMAND}\` from ${PERFORMANCE_DOC}'s polling table and lib/exports/cost: not by hand. -->`;
export const COST_TABLE_END = '<!-- End of the written table. -->';

/** The polling bench's comparison loop: measured, but no export of this system runs it. */
const NAIVE_LOOP = 'naive 30 s loop';

/** 1,000 spots, one export an hour each, 30 days. */
const EXPORTS_A_MONTH_PER_1000_HOURLY_SPOTS = 1_000 * 24 * 30;

export const COST_TABLE_HEADER = [
  'export lasts',
  'loop',
  'polls',
  'transitions',
  'Step Functions',
  'Lambda invocations',
  'Lambda GB-s',
  'Lambda',
  'DynamoDB writes / reads',
  'DynamoDB',
  'other',
  '**per export**',
  `${EXPORTS_A_MONTH_PER_1000_HOURLY_SPOTS.toLocaleString('en-US')} exports (1,000 hourly spots, a month)`,
];

/** One row of the polling table: an export's nominal length, the loop, and the medians. */
export interface PollingFigures {
  exportLasts: string;
  loop: string;
  polls: number;
  transitions: number;
}

/** The rows of the "Polling cost" table of docs/performance.md. */
export function pollingFigures(performanceMarkdown: string): PollingFigures[] {
  const start = performanceMarkdown.indexOf('## Polling cost');
  if (start < 0) throw new Error(`${PERFORMANCE_DOC} has no "## Polling cost" section`);
  const section = performanceMarkdown.slice(start);
  const rows = [...section.matchAll(/^\| ([^|]+) \| ([^|]+) \| (\d+) \| (\d+) \|/gm)].map((match) => ({
    exportLasts: (match[1] as string).trim(),
    loop: (match[2] as string).trim(),
    polls: Number(match[3]),
    transitions: Number(match[4]),
  }));
  if (rows.length === 0) throw new Error(`${PERFORMANCE_DOC}'s polling table has no rows`);
  return rows;
}

/** The figures of one export length and loop; throws when the polling table lacks them. */
export function pollingFigure(
  figures: readonly PollingFigures[],
  exportLasts: string,
  loop: string,
): PollingFigures {
  const figure = figures.find((row) => row.exportLasts === exportLasts && row.loop === loop);
  if (figure === undefined)
    throw new Error(`${PERFORMANCE_DOC} has no polling row for ${exportLasts}, ${loop}`);
  return figure;
}

/**
 * A row of the cost table: the usage lib/exports/cost counts for a COMPLETED export created at
 * the first attempt and polled `polls` times, its archive step included (billed its minimum; the
 * archive's own size and storage are priced in docs/archive.md), at the settings' price table.
 * Throws when the model's transitions are not the ones measured.
 */
export function costRow({ exportLasts, loop, polls, transitions }: PollingFigures): string[] {
  const record = exportRecordFixture({
    status: ExportStatus.COMPLETED,
    upstreamExportId: 'up_bench',
    createAttempts: 1,
    pollCount: polls,
    archive: { status: ArchiveStatus.ARCHIVED, files: [], fileCount: 0, bytes: 0 },
  });
  const usage = exportUsage(record, AWS_PRICE_TABLE);
  if (usage.stateTransitions !== transitions)
    throw new Error(
      `${exportLasts} ${loop}: the cost model counts ${usage.stateTransitions} transitions, the bench ${transitions}`,
    );
  const cost = estimateExportCost(usage, AWS_PRICE_TABLE);
  const usd = (value: number) => `$${value.toFixed(6)}`;
  return [
    exportLasts,
    loop,
    String(polls),
    String(usage.stateTransitions),
    usd(cost.stepFunctionsUsd),
    String(usage.taskInvocations),
    usage.billedGbSeconds.toFixed(2),
    usd(cost.lambdaUsd),
    `${usage.tableWrites} / ${usage.tableReads}`,
    usd(cost.dynamoDbUsd),
    usd(cost.otherUsd),
    `**$${cost.totalUsd.toFixed(5)}**`,
    `$${Math.round(cost.totalUsd * EXPORTS_A_MONTH_PER_1000_HOURLY_SPOTS).toLocaleString('en-US')}`,
  ];
}

/** The cost table, a row per polling row this system runs (not the naive loop), in its order. */
export function renderCostTable(figures: readonly PollingFigures[]): string {
  const lines = [
    `| ${COST_TABLE_HEADER.join(' | ')} |`,
    `| ${COST_TABLE_HEADER.map(() => '---').join(' | ')} |`,
  ];
  for (const row of figures.filter(({ loop }) => loop !== NAIVE_LOOP))
    lines.push(`| ${costRow(row).join(' | ')} |`);
  return lines.join('\n');
}

/** docs/deploying.md with its cost table written from the polling figures. */
export function withCostTable(deployingMarkdown: string, performanceMarkdown: string): string {
  const start = deployingMarkdown.indexOf(COST_TABLE_START);
  const end = deployingMarkdown.indexOf(COST_TABLE_END);
  if (start < 0 || end < start) throw new Error(`${DEPLOYING_DOC} has no cost table markers`);
  return (
    `${deployingMarkdown.slice(0, start + COST_TABLE_START.length)}\n\n` +
    `${renderCostTable(pollingFigures(performanceMarkdown))}\n\n` +
    deployingMarkdown.slice(end)
  );
}
