import type { ExportStatus } from '../record/ExportStatus';
import { isoAt } from '../time/instants';
import { wholeSecondInstant } from '../time/intervals';
import type { CoverageLedger, CoverageWindow } from './CoverageLedger';
import { planWindowExport, type WindowPlanningDependencies } from './coverageWindows';
import { occupiedBy, planWindows } from './planWindows';

const MS_PER_SECOND = 1000;
/** Windows read per page while planning. */
const PLANNING_PAGE_WINDOWS = 1000;

/** A scheduled run, as the schedule's event describes it. */
export interface ScheduleRunCommand {
  spotId: string;
  schedule: string;
  /** Epoch ms, whole seconds. */
  scheduledTimeMs: number;
  /** What the schedule's first run covers, up to its end. */
  firstWindowSeconds: number;
  /** A run ends this long before its scheduled time. */
  lagSeconds: number;
  maxWindowHours: number;
  /**
   * The ages at which the run's windows are exported again once covered (ISO 8601 durations,
   * checked where the schedule is configured); absent: never.
   */
  restate?: readonly string[];
}

export interface ScheduledWindow {
  from: string;
  until: string;
  exportId: string;
  /** False when the ledger had the window already (a redelivered run): nothing was started for it. */
  planned: boolean;
  status?: ExportStatus;
}

export interface ScheduleRunResult {
  spotId: string;
  schedule: string;
  /** What the run planned up to: the schedule's watermark. */
  watermark: string;
  windows: ScheduledWindow[];
}

/**
 * A scheduled run, gap-free: it exports from the schedule's watermark (where its previous runs
 * planned up to; for its first run, its `window` before its end) up to its scheduled time minus
 * the lag, in windows of at most `maxWindowHours`, skipping every hour the coverage ledger already
 * accounts for. Each window's export queues behind the spot's running export. A run that never
 * came (a dropped event) folds into the next one; a failed window is retried by itself (see
 * coverageWindows.ts); a redelivered run finds every window recorded and starts nothing.
 * The watermark moves once the windows are recorded, so a crash halfway plans the rest next time.
 */
export async function runSchedule(
  deps: WindowPlanningDependencies,
  run: ScheduleRunCommand,
): Promise<ScheduleRunResult> {
  const { spotId, schedule } = run;
  // Told at once, before anything is recorded: a spot without credentials.
  await deps.credentials.getCredentials(spotId);
  const endMs = run.scheduledTimeMs - run.lagSeconds * MS_PER_SECOND;
  const watermark = await deps.coverage.getWatermark(spotId, schedule);
  const startMs =
    watermark === undefined ? endMs - run.firstWindowSeconds * MS_PER_SECOND : Date.parse(watermark.until);
  const windows: ScheduledWindow[] = [];
  if (startMs < endMs) {
    const known = await windowsBetween(deps.coverage, spotId, startMs, endMs);
    const planned = planWindows({ fromMs: startMs, untilMs: endMs }, occupiedBy(known), run.maxWindowHours);
    for (const interval of planned) {
      const result = await planWindowExport(
        deps,
        spotId,
        interval,
        { kind: 'schedule', schedule },
        { restate: run.restate ?? [] },
      );
      const record = await deps.store.getExport(spotId, result.window.exportId);
      windows.push({
        from: result.window.from,
        until: result.window.until,
        exportId: result.window.exportId,
        planned: result.planned,
        ...(record !== undefined && { status: record.status }),
      });
    }
  }
  const advanced =
    startMs < endMs
      ? await deps.coverage.advanceWatermark(
          spotId,
          schedule,
          wholeSecondInstant(endMs),
          isoAt(deps.now()),
          run.restate ?? [],
        )
      : watermark;
  return { spotId, schedule, watermark: advanced?.until ?? wholeSecondInstant(endMs), windows };
}

/** Every window of the spot that overlaps `[fromMs, untilMs)`, all pages. */
export async function windowsBetween(
  coverage: CoverageLedger,
  spotId: string,
  fromMs: number,
  untilMs: number,
): Promise<CoverageWindow[]> {
  const all: CoverageWindow[] = [];
  let nextToken: string | undefined;
  do {
    const page = await coverage.listWindows(spotId, {
      from: wholeSecondInstant(fromMs),
      until: wholeSecondInstant(untilMs),
      limit: PLANNING_PAGE_WINDOWS,
      ...(nextToken !== undefined && { nextToken }),
    });
    all.push(...page.windows);
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  return all;
}
