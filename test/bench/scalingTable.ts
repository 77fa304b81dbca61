// The extrapolation table of docs/scaling.md: the load of 10,000 and 100,000 spots on each AWS
// quota (and OpenWeb's auth limit), computed from the per spot-day figures of the fleet bench's
// table in the same document (its largest N) and the quotas' documented defaults below.
// `npm run docs:scaling` writes it; `npm test` fails while it is stale.

export const SCALING_DOC = 'docs/scaling.md';
export const SCALING_TABLE_COMMAND = 'npm run docs:scaling';
export const BENCH_TABLE_START = '<!-- The fleet table: as `npm run bench:fleet` printed it. -->';
export const BENCH_TABLE_END = '<!-- End of the fleet table. -->';
export const SCALING_TABLE_START = `<!-- The table below is written by \`${SCALING_TABLE_COMMAND}\` from the fleet table above and the quotas in test/bench/scalingTable.ts: not by hand. -->`;
export const SCALING_TABLE_END = '<!-- End of the written table. -->';

/** The fleets the table is written for. */
export const FLEETS = [10_000, 100_000] as const;
/**
 * Every schedule fires at :00 (no flexible window), and an export takes about 10 minutes: an
 * hour's work lands within its first 600 seconds.
 */
export const BURST_SECONDS = 600;
/** What one Lambda invocation is counted to last, for concurrency (above the functions' usual run). */
export const INVOCATION_SECONDS = 1;
const SECONDS_PER_DAY = 86_400;
const HOURS_PER_DAY = 24;

/** The per spot-day figures of the fleet bench that the table reads, by the bench's row label. */
export const BENCH_ROWS = {
  exports: 'exports completed, per spot-day',
  transitions: 'state transitions, per spot-day',
  invocations: 'invocations (all handlers), per spot-day',
  authCalls: 'upstream auth calls, per spot (the run)',
  hottestWrites: 'most-written partition: writes per spot-day',
  sweepReadUnits: 'reconciler: read units per sweep, median',
} as const;

export type BenchFigures = { [K in keyof typeof BENCH_ROWS]: number } & {
  /** The N of the column read. */
  spots: number;
};

/**
 * The documented defaults (US East (N. Virginia), US West (Oregon), Europe (Ireland)); most are
 * adjustable, and new accounts may start lower. See docs/scaling.md for where each is documented.
 */
export const QUOTAS = {
  startExecutionBucket: 1_300,
  startExecutionRefillPerSecond: 300,
  stateTransitionBucket: 5_000,
  stateTransitionRefillPerSecond: 1_500,
  schedulerInvocationsPerSecond: 1_000,
  lambdaConcurrency: 1_000,
  partitionWriteUnitsPerSecond: 1_000,
  partitionReadUnitsPerSecond: 3_000,
  openWebAuthPerSecondPerAddress: 1,
} as const;

/** The bench table's figures for its largest N that met the goals. */
export function benchFigures(scalingMarkdown: string): BenchFigures {
  const start = scalingMarkdown.indexOf(BENCH_TABLE_START);
  const end = scalingMarkdown.indexOf(BENCH_TABLE_END);
  if (start < 0 || end < start) throw new Error(`${SCALING_DOC} has no fleet table markers`);
  const lines = scalingMarkdown
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|'));
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  const header = cells(lines[0] ?? '');
  const sizes = header.slice(1).map((cell) => Number(cell.replace(/[^\d]/g, '')));
  const rows = new Map(lines.slice(2).map((line) => [cells(line)[0] ?? '', cells(line)]));
  // The largest N whose run met the bench's goals (no gap, no window exported twice): a run that
  // did not keep up understates the work per spot.
  const met = sizes
    .map((size, index) => ({ size, column: index + 1 }))
    .filter(
      ({ column }) =>
        rows.get('gaps')?.[column] === '0' && rows.get('windows exported twice')?.[column] === '0',
    );
  if (met.length === 0) throw new Error(`${SCALING_DOC}'s fleet table has no run that met its goals`);
  const { column } = met.reduce((largest, each) => (each.size > largest.size ? each : largest));
  const figure = (label: string): number => {
    const value = Number(rows.get(label)?.[column]);
    if (!Number.isFinite(value)) throw new Error(`${SCALING_DOC}'s fleet table has no figure "${label}"`);
    return value;
  };
  return {
    spots: sizes[column - 1] as number,
    exports: figure(BENCH_ROWS.exports),
    transitions: figure(BENCH_ROWS.transitions),
    invocations: figure(BENCH_ROWS.invocations),
    authCalls: figure(BENCH_ROWS.authCalls),
    hottestWrites: figure(BENCH_ROWS.hottestWrites),
    sweepReadUnits: figure(BENCH_ROWS.sweepReadUnits),
  };
}

interface QuotaRow {
  quota: string;
  perSpot: string;
  load: string;
  at: (spots: number) => string;
  /** The fleet at which the load reaches the quota. */
  spotsAtQuota: number | undefined;
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const perSecond = (value: number) => `${value < 10 ? value.toFixed(2) : count(value)}/s`;

/** One row per quota: the load per spot from the bench, the formula, the fleets, and where it binds. */
export function quotaRows(bench: BenchFigures): QuotaRow[] {
  const perHour = (perDay: number) => perDay / HOURS_PER_DAY;
  const burstRate = (spots: number, perDay: number) => (spots * perHour(perDay)) / BURST_SECONDS;
  const startsPerHour = perHour(bench.exports);
  return [
    {
      quota: `Step Functions \`StartExecution\`: bucket ${count(QUOTAS.startExecutionBucket)}, refill ${count(QUOTAS.startExecutionRefillPerSecond)}/s`,
      perSpot: `${bench.exports} executions a day (${startsPerHour.toFixed(2)} an hour, at :00)`,
      load: `an hour's starts at once: admitted after max(0, N × ${startsPerHour.toFixed(2)} − bucket) ÷ refill`,
      at: (spots) =>
        `${count(Math.max(0, spots * startsPerHour - QUOTAS.startExecutionBucket) / QUOTAS.startExecutionRefillPerSecond)} s of throttled starts`,
      spotsAtQuota: QUOTAS.startExecutionBucket / startsPerHour,
    },
    {
      quota: `Step Functions state transitions: bucket ${count(QUOTAS.stateTransitionBucket)}, refill ${count(QUOTAS.stateTransitionRefillPerSecond)}/s`,
      perSpot: `${bench.transitions} transitions a day`,
      load: `an hour's transitions within ${BURST_SECONDS} s: N × ${bench.transitions} ÷ 24 ÷ ${BURST_SECONDS}`,
      at: (spots) => perSecond(burstRate(spots, bench.transitions)),
      spotsAtQuota:
        (QUOTAS.stateTransitionRefillPerSecond * BURST_SECONDS * HOURS_PER_DAY) / bench.transitions,
    },
    {
      quota: `EventBridge Scheduler invocations: ${count(QUOTAS.schedulerInvocationsPerSecond)}/s`,
      perSpot: `${startsPerHour.toFixed(2)} runs an hour, at :00`,
      load: `an hour's runs at once, delivered over N × ${startsPerHour.toFixed(2)} ÷ ${count(QUOTAS.schedulerInvocationsPerSecond)} s`,
      at: (spots) => `${count((spots * startsPerHour) / QUOTAS.schedulerInvocationsPerSecond)} s to deliver`,
      spotsAtQuota: QUOTAS.schedulerInvocationsPerSecond / startsPerHour,
    },
    {
      quota: `Lambda concurrent executions: ${count(QUOTAS.lambdaConcurrency)}`,
      perSpot: `${bench.invocations} invocations a day`,
      load: `an hour's invocations within ${BURST_SECONDS} s, ${INVOCATION_SECONDS} s each: N × ${bench.invocations} ÷ 24 ÷ ${BURST_SECONDS} × ${INVOCATION_SECONDS}`,
      at: (spots) => count(burstRate(spots, bench.invocations) * INVOCATION_SECONDS),
      spotsAtQuota:
        (QUOTAS.lambdaConcurrency * BURST_SECONDS * HOURS_PER_DAY) / (bench.invocations * INVOCATION_SECONDS),
    },
    {
      quota: `DynamoDB, one partition key: ${count(QUOTAS.partitionWriteUnitsPerSecond)} write units/s`,
      perSpot: `${bench.hottestWrites} writes a day to the most-written key (items under 1 KB: 1 unit each)`,
      load: `an hour's writes to that key within ${BURST_SECONDS} s: N × ${bench.hottestWrites} ÷ 24 ÷ ${BURST_SECONDS}`,
      at: (spots) => perSecond(burstRate(spots, bench.hottestWrites)),
      spotsAtQuota:
        (QUOTAS.partitionWriteUnitsPerSecond * BURST_SECONDS * HOURS_PER_DAY) / bench.hottestWrites,
    },
    {
      quota: `DynamoDB, one partition key: ${count(QUOTAS.partitionReadUnitsPerSecond)} read units/s`,
      perSpot: `the reconciler's sweep: ${bench.sweepReadUnits} read units (not per spot)`,
      load: 'one sweep every 5 minutes, whatever N',
      at: () => `${bench.sweepReadUnits} units a sweep`,
      spotsAtQuota: undefined,
    },
    {
      quota: `OpenWeb auth: ${QUOTAS.openWebAuthPerSecondPerAddress}/s per client address`,
      perSpot: `${bench.authCalls} auths (a token lasts 24 h: once a day)`,
      load: `N × ${bench.authCalls} ÷ ${count(SECONDS_PER_DAY)}`,
      at: (spots) => perSecond((spots * bench.authCalls) / SECONDS_PER_DAY),
      spotsAtQuota: (QUOTAS.openWebAuthPerSecondPerAddress * SECONDS_PER_DAY) / bench.authCalls,
    },
  ];
}

/** The extrapolation table, from the bench table's largest N. */
export function renderScalingTable(bench: BenchFigures): string {
  const header = [
    'quota (documented default)',
    `per spot (bench, N = ${count(bench.spots)})`,
    'load of N spots',
    ...FLEETS.map((spots) => `${count(spots)} spots`),
    'spots at the quota',
  ];
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const row of quotaRows(bench)) {
    const cells = [
      row.quota,
      row.perSpot,
      row.load,
      ...FLEETS.map((spots) => row.at(spots)),
      row.spotsAtQuota === undefined ? 'does not grow with N' : count(row.spotsAtQuota),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** docs/scaling.md with its extrapolation table written from its fleet table. */
export function withScalingTable(scalingMarkdown: string): string {
  const start = scalingMarkdown.indexOf(SCALING_TABLE_START);
  const end = scalingMarkdown.indexOf(SCALING_TABLE_END);
  if (start < 0 || end < start) throw new Error(`${SCALING_DOC} has no extrapolation table markers`);
  return (
    `${scalingMarkdown.slice(0, start + SCALING_TABLE_START.length)}\n\n` +
    `${renderScalingTable(benchFigures(scalingMarkdown))}\n\n` +
    scalingMarkdown.slice(end)
  );
}
