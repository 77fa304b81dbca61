// What restatement costs: `npm run bench:restate` (RESTATE_DAYS changes the run). One spot's schedule
// runs for RESTATE_DAYS simulated days with `restate: ["P1D", "P7D"]` and without, hourly and daily
// (and hourly with half the budget it needs, to show the deferrals),
// on the domain's own code (runSchedule, the reconciler every 5 minutes, the queue, the coverage
// ledger, the restatement budget at its default) over in-memory ports, on a simulated clock. Each
// export takes what the simulator's do: 30 s + 60 s per hour of range, one per spot at a time.
// Figures, side by side in one run:
//   - exports per spot-day over the last 7 days (restatement at both ages reached by then);
//   - the wait of each scheduled run's export between its request and the spot taking it
//     (median and max): what restatements add to it (goal: nothing, they queue behind);
//   - restatements waiting for the budget, and windows settled at the end.
// Exits with 1 when restatement adds wait to a scheduled run.
import { WindowState } from '../../lib/exports/coverage/CoverageLedger';
import { runSchedule, windowsBetween } from '../../lib/exports/coverage/runSchedule';
import { currencyOf, WindowCurrency } from '../../lib/exports/coverage/windowVersions';
import { onTerminal } from '../../lib/exports/lifecycle/terminalTransitions';
import { reconcileExports } from '../../lib/exports/reconciler/reconcileExports';
import type { ExportRecord } from '../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../lib/exports/record/ExportStatus';
import { inMemoryLifecycle } from '../support/inMemoryPorts';
import { median } from './support/median';

const SPOT = 'sp_demo';
const MS_PER_SECOND = 1000;
const MINUTE_MS = 60 * MS_PER_SECOND;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const DAYS = Number(process.env.RESTATE_DAYS ?? 15);
/** The last days, when every age has been reached, are the steady state measured. */
const MEASURED_DAYS = 7;
const RECONCILE_EVERY_MS = 5 * MINUTE_MS;
/** The simulator's export duration: 30 s, plus 60 s per hour of range. */
const EXPORT_BASE_MS = 30 * MS_PER_SECOND;
const EXPORT_PER_HOUR_MS = 60 * MS_PER_SECOND;
const START_MS = Date.parse('2026-11-01T00:00:00Z');

interface Case {
  name: string;
  periodMs: number;
  restate: string[];
  /** The spot's restatements per day; default the setting's default. */
  budget?: number;
}

interface Result {
  exportsPerSpotDay: number;
  restatementsPerSpotDay: number;
  scheduledWaitsMs: number[];
  waitingMetrics: number;
  settledWindows: number;
  coveredWindows: number;
}

async function runCase(spec: Case): Promise<Result> {
  const lifecycle = inMemoryLifecycle({
    archiving: false,
    ...(spec.budget !== undefined && { restatementsPerSpotPerDay: spec.budget }),
  });
  const { deps, store, clock } = lifecycle;
  clock.advance(START_MS - clock.nowMs);
  const finishAt = new Map<string, number>();
  let nextRunMs = START_MS + spec.periodMs;
  let nextReconcileMs = START_MS + RECONCILE_EVERY_MS;
  const endMs = START_MS + DAYS * DAY_MS;

  // Every export the spot started: the upstream took each of them (the queue drains within minutes).
  const all = async (): Promise<ExportRecord[]> =>
    (await Promise.all([...finishAt.keys()].map((exportId) => store.getExport(SPOT, exportId)))).filter(
      (record): record is ExportRecord => record !== undefined,
    );
  // The upstream takes each export the spot started (REQUESTED) at once, and finishes it after its time.
  const takeStarted = async () => {
    for (const record of await store
      .listExports(SPOT, { status: ExportStatus.REQUESTED, limit: 10 })
      .then((page) => page.items)) {
      if (finishAt.has(record.exportId) || record.request.kind !== 'dateRange') continue;
      const hours = (Date.parse(record.request.until) - Date.parse(record.request.from)) / HOUR_MS;
      await store.transition(SPOT, record.exportId, {
        from: [ExportStatus.REQUESTED],
        to: ExportStatus.PROCESSING,
        changes: { startedAt: new Date(clock.nowMs).toISOString() },
      });
      finishAt.set(record.exportId, clock.nowMs + EXPORT_BASE_MS + hours * EXPORT_PER_HOUR_MS);
    }
  };

  while (clock.nowMs < endMs) {
    const pending = [...finishAt.entries()].filter(([, at]) => at > 0);
    const nextFinish = Math.min(...pending.map(([, at]) => at), Number.POSITIVE_INFINITY);
    const nextMs = Math.min(nextRunMs, nextReconcileMs, nextFinish);
    clock.advance(nextMs - clock.nowMs);
    for (const [exportId, at] of pending) {
      if (at > clock.nowMs) continue;
      finishAt.set(exportId, 0);
      const completed = await store.transition(SPOT, exportId, {
        from: [ExportStatus.PROCESSING],
        to: ExportStatus.COMPLETED,
        changes: { completedAt: new Date(clock.nowMs).toISOString() },
      });
      await onTerminal(deps, completed);
    }
    if (clock.nowMs === nextRunMs) {
      await runSchedule(deps, {
        spotId: SPOT,
        schedule: 'bench',
        scheduledTimeMs: nextRunMs,
        firstWindowSeconds: spec.periodMs / MS_PER_SECOND,
        lagSeconds: 0,
        maxWindowHours: 730,
        restate: spec.restate,
      });
      nextRunMs += spec.periodMs;
    }
    if (clock.nowMs === nextReconcileMs) {
      await reconcileExports(deps);
      nextReconcileMs += RECONCILE_EVERY_MS;
    }
    await takeStarted();
  }

  const measuredFrom = endMs - MEASURED_DAYS * DAY_MS;
  const records = await all();
  const measured = records.filter((record) => Date.parse(record.requestedAt) > measuredFrom);
  const restatements = measured.filter((record) => record.origin?.restatement !== undefined);
  const scheduled = measured.filter(
    (record) => record.origin?.restatement === undefined && record.startedAt !== undefined,
  );
  const windows = await windowsBetween(lifecycle.coverage, SPOT, START_MS - DAY_MS, endMs);
  const covered = windows.filter((window) => window.state === WindowState.COVERED);
  return {
    exportsPerSpotDay: measured.length / MEASURED_DAYS,
    restatementsPerSpotDay: restatements.length / MEASURED_DAYS,
    scheduledWaitsMs: scheduled.map(
      (record) => Date.parse(record.startedAt as string) - Date.parse(record.requestedAt),
    ),
    waitingMetrics: lifecycle.metrics.filter((name) => name === 'RestatementsWaiting').length,
    settledWindows: covered.filter((window) => currencyOf(window) === WindowCurrency.SETTLED).length,
    coveredWindows: covered.length,
  };
}

function seconds(ms: number): string {
  return `${(ms / MS_PER_SECOND).toFixed(0)} s`;
}

async function main(): Promise<void> {
  const cases: Case[] = [
    { name: 'hourly', periodMs: HOUR_MS, restate: [] },
    { name: 'hourly, restate P1D P7D', periodMs: HOUR_MS, restate: ['P1D', 'P7D'] },
    {
      name: 'hourly, restate P1D P7D, budget 24 a day',
      periodMs: HOUR_MS,
      restate: ['P1D', 'P7D'],
      budget: 24,
    },
    { name: 'daily', periodMs: DAY_MS, restate: [] },
    { name: 'daily, restate P1D P7D', periodMs: DAY_MS, restate: ['P1D', 'P7D'] },
  ];
  const results = new Map<string, Result>();
  for (const spec of cases) results.set(spec.name, await runCase(spec));
  const rows = cases.map((spec) => {
    const result = results.get(spec.name) as Result;
    const waits = result.scheduledWaitsMs;
    return `| ${spec.name} | ${result.exportsPerSpotDay.toFixed(1)} | ${result.restatementsPerSpotDay.toFixed(1)} | ${seconds(median(waits))} | ${seconds(Math.max(0, ...waits))} | ${result.waitingMetrics} | ${result.settledWindows} of ${result.coveredWindows} |`;
  });
  console.log(`bench:restate, ${new Date().toISOString().slice(0, 10)}, ${DAYS} simulated days, one spot`);
  console.log('');
  console.log(
    '| schedule | exports per spot-day | of which restatements | scheduled run waits (median) | (max) | restatements deferred by the budget | windows settled at the end |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  const addedWait = ['hourly', 'daily'].map((name) => {
    const without = results.get(name) as Result;
    const withRestate = results.get(`${name}, restate P1D P7D`) as Result;
    return Math.max(...withRestate.scheduledWaitsMs, 0) - Math.max(...without.scheduledWaitsMs, 0);
  });
  console.log('');
  console.log(
    `Ratio of exports per spot-day, with restatement ÷ without: hourly ${((results.get('hourly, restate P1D P7D') as Result).exportsPerSpotDay / (results.get('hourly') as Result).exportsPerSpotDay).toFixed(2)}, daily ${((results.get('daily, restate P1D P7D') as Result).exportsPerSpotDay / (results.get('daily') as Result).exportsPerSpotDay).toFixed(2)}; wait restatement adds to a scheduled run (max): hourly ${seconds(addedWait[0] ?? 0)}, daily ${seconds(addedWait[1] ?? 0)}`,
  );
  if (addedWait.some((ms) => ms > 0)) process.exitCode = 1;
}

await main();
