import {
  type CoverageWindow,
  RestatementState,
  type WindowRestatement,
  WindowState,
} from '../coverage/CoverageLedger';
import { exportStartOf, nextCheckAt, windowOutcomeOf } from '../coverage/coverageWindows';
import { nextRestatement, REFRESH_AGE } from '../coverage/windowVersions';
import { startExport } from '../queue/startExport';
import { QueuePriority } from '../record/ExportRecord';
import { newExportId } from '../record/exportId';
import { isoAt } from '../time/instants';
import type { RestatementDependencies } from './ports';
import { recordRestatementOutcome } from './recordRestatementOutcome';

const MS_PER_SECOND = 1000;
const MS_PER_DAY = 86_400_000;

/** What the reconciler did with a covered window that was due. */
export type RestatementAdvance = 'started' | 'waiting' | 'checked' | 'settled' | 'nothing to do';

/**
 * The reconciler's turn on a COVERED window that is due (its `dueAt` passed):
 * - its restatement's export is running: started if it was never recorded, its outcome written if
 *   that was missed, else looked at again later;
 * - a restatement is due (its `until` is as old as one of its `restate` ages, and no archived
 *   version was read at that age or later) or its retry's cooldown is over: a new export of the
 *   same window, queued behind the spot's scheduled runs and ahead of backfill windows, if the
 *   spot's budget of the day allows; otherwise it waits for the next day, and says so;
 * - nothing due yet: looked at again when the next age comes.
 * The window stays COVERED throughout. Every write is guarded by the window's version, so two
 * reconcilers (or one run delivered twice) start one restatement per age.
 */
export async function restateWindow(
  deps: RestatementDependencies,
  window: CoverageWindow,
): Promise<RestatementAdvance> {
  if (window.state !== WindowState.COVERED) return 'nothing to do';
  const current = window.restatement;
  if (current?.state === RestatementState.IN_FLIGHT && current.exportId !== undefined) {
    const record = await deps.store.getExport(window.spotId, current.exportId);
    if (record === undefined) {
      await startRestatementExport(deps, window, current);
      return 'started';
    }
    if (windowOutcomeOf(record, deps.settings.archiving) === undefined) {
      await deps.coverage.updateWindow(window.spotId, window.from, window.until, {
        expectedVersion: window.version,
        changes: { dueAt: nextCheckAt(deps) },
      });
      return 'checked';
    }
    await recordRestatementOutcome(deps, record);
    return 'settled';
  }
  const nowMs = deps.now();
  const retrying =
    current?.state === RestatementState.RETRYING || current?.state === RestatementState.WAITING
      ? current
      : undefined;
  if (retrying !== undefined && Date.parse(retrying.nextAttemptAt ?? isoAt(nowMs)) > nowMs) {
    await followUp(deps, window, retrying.nextAttemptAt as string);
    return 'nothing to do';
  }
  // A backfill's refresh is retried as asked, outside the budget.
  if (retrying?.age === REFRESH_AGE) return attemptRestatement(deps, window, REFRESH_AGE, retrying);
  const next = nextRestatement(window, nowMs);
  if (next === undefined) {
    await deps.coverage.updateWindow(window.spotId, window.from, window.until, {
      expectedVersion: window.version,
      changes: {},
      remove: ['dueAt'],
    });
    return 'nothing to do';
  }
  if (next.dueAtMs > nowMs) {
    await followUp(deps, window, isoAt(next.dueAtMs));
    return 'nothing to do';
  }
  // A retry (or a wait for the budget) goes on with the same age's attempts; a new age starts afresh.
  const previous = retrying?.age === next.age ? retrying : undefined;
  return attemptRestatement(deps, window, next.age, previous);
}

async function followUp(deps: RestatementDependencies, window: CoverageWindow, dueAt: string): Promise<void> {
  if (window.dueAt === dueAt) return;
  await deps.coverage.updateWindow(window.spotId, window.from, window.until, {
    expectedVersion: window.version,
    changes: { dueAt },
  });
}

/** The start of the UTC day after `nowMs`: when a spot's budget of restatements is whole again. */
function nextUtcDay(nowMs: number): number {
  return (Math.floor(nowMs / MS_PER_DAY) + 1) * MS_PER_DAY;
}

async function attemptRestatement(
  deps: RestatementDependencies,
  window: CoverageWindow,
  age: string,
  previous: WindowRestatement | undefined,
): Promise<RestatementAdvance> {
  const { spotId, from, until } = window;
  const nowMs = deps.now();
  const day = isoAt(nowMs).slice(0, 10);
  const limit = deps.settings.restatementsPerSpotPerDay;
  const base = {
    age,
    exportIds: previous?.exportIds ?? [],
    attempts: previous?.attempts ?? 0,
    dueSince: previous?.dueSince ?? isoAt(nowMs),
    ...(previous?.backfillId !== undefined && { backfillId: previous.backfillId }),
  };
  const budgeted = previous?.backfillId === undefined;
  if (budgeted && !(await deps.coverage.takeRestatementBudget(spotId, day, limit))) {
    const nextAttemptAt = isoAt(nextUtcDay(nowMs));
    const waiting = await deps.coverage.updateWindow(spotId, from, until, {
      expectedVersion: window.version,
      changes: {
        restatement: {
          ...base,
          state: RestatementState.WAITING,
          nextAttemptAt,
          reason: `the spot's ${limit} restatements of ${day} are taken (restatementsPerSpotPerDay)`,
          ...(previous?.exportId !== undefined && { exportId: previous.exportId }),
        },
        dueAt: nextAttemptAt,
      },
    });
    if (waiting !== undefined && previous?.state !== RestatementState.WAITING)
      deps.metrics.count('RestatementsWaiting');
    return 'waiting';
  }
  const exportId = newExportId(nowMs);
  const restatement: WindowRestatement = {
    ...base,
    state: RestatementState.IN_FLIGHT,
    exportId,
    exportIds: [...base.exportIds, exportId],
    attempts: base.attempts + 1,
  };
  const claimed = await deps.coverage.updateWindow(spotId, from, until, {
    expectedVersion: window.version,
    changes: {
      restatement,
      // If the export below is never recorded (a crash), the reconciler records it then.
      dueAt: isoAt(nowMs + deps.settings.startLockLeaseSeconds * MS_PER_SECOND),
    },
  });
  if (claimed === undefined) return 'nothing to do';
  deps.metrics.count(restatement.attempts > 1 ? 'RestatementsRetried' : 'RestatementsStarted');
  await startRestatementExport(deps, claimed, restatement);
  return 'started';
}

/**
 * A backfill's `"refresh": true` on a covered window: exported again now, as a restatement of the
 * window marked `refresh`, queued with the backfill's windows and outside the daily budget (an
 * operator asked for it). Once per backfill: a repeat (a retried request, the reconciler finishing
 * the backfill) finds the window's restatement naming it. False when nothing was started: the window
 * is not covered, or a restatement of it is running already (its version is as fresh).
 */
export async function refreshWindow(
  deps: RestatementDependencies,
  spotId: string,
  bounds: { from: string; until: string },
  backfillId: string,
): Promise<boolean> {
  const window = await deps.coverage.getWindow(spotId, bounds.from, bounds.until);
  if (window === undefined || window.state !== WindowState.COVERED) return false;
  const current = window.restatement;
  if (current?.backfillId === backfillId) return false;
  if (current?.state === RestatementState.IN_FLIGHT) return false;
  const fresh: WindowRestatement = {
    age: REFRESH_AGE,
    backfillId,
    state: RestatementState.RETRYING,
    exportIds: [],
    attempts: 0,
    dueSince: isoAt(deps.now()),
  };
  return (await attemptRestatement(deps, window, REFRESH_AGE, fresh)) === 'started';
}

/**
 * Queues the restatement's export (the same id every time, so a repeat finds it): an ordinary
 * export of the window, marked as a restatement at its age, behind scheduled runs and ahead of
 * backfill windows.
 */
async function startRestatementExport(
  deps: RestatementDependencies,
  window: CoverageWindow,
  restatement: WindowRestatement,
): Promise<void> {
  const { source, origin } = exportStartOf(window.source);
  const refresh = restatement.backfillId;
  await startExport(deps, {
    spotId: window.spotId,
    request: { kind: 'dateRange', from: window.from, until: window.until },
    source: refresh === undefined ? source : 'backfill',
    whenBusy: 'queue',
    // A backfill's refresh is history: it waits behind what is due now, like the backfill's windows.
    priority: refresh === undefined ? QueuePriority.RESTATEMENT : QueuePriority.BACKFILL,
    exportId: restatement.exportId as string,
    origin:
      refresh === undefined
        ? { ...origin, restatement: { age: restatement.age } }
        : { backfillId: refresh, restatement: { age: restatement.age } },
  });
  await deps.coverage.updateWindow(window.spotId, window.from, window.until, {
    expectedVersion: window.version,
    changes: { dueAt: nextCheckAt(deps) },
  });
}
