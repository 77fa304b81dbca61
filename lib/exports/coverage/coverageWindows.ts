import { startExport } from '../queue/startExport';
import { ArchiveStatus } from '../record/ExportArchive';
import {
  type ExportOrigin,
  type ExportRecord,
  type ExportSource,
  QueuePriority,
} from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import { newExportId } from '../record/exportId';
import { REQUEST_REJECTED_REASON_PREFIX } from '../record/failureReasons';
import { isoAt } from '../time/instants';
import { type Interval, wholeSecondInstant } from '../time/intervals';
import { type CoverageWindow, type WindowSource, WindowState, type WindowUpdate } from './CoverageLedger';
import type { CoverageDependencies } from './ports';
import { publishOrCount } from './publishOrCount';
import { nextRestatement, versionOf } from './windowVersions';

const MS_PER_SECOND = 1000;
/** Tries of a read-modify-write of a window that lost a race. */
const WINDOW_WRITE_ATTEMPTS = 3;

/** What planning a window and queuing its export touches: the start's ports and the ledger, no upstream. */
export type WindowPlanningDependencies = Pick<
  CoverageDependencies,
  | 'store'
  | 'coverage'
  | 'spotLocks'
  | 'idempotencyKeys'
  | 'credentials'
  | 'workflows'
  | 'metrics'
  | 'settings'
  | 'now'
>;

/** What writing an export's outcome to its window touches (the archive function writes it too). */
export type WindowOutcomeDependencies = Pick<
  CoverageDependencies,
  'coverage' | 'events' | 'metrics' | 'settings' | 'now'
>;

/** What an export's end means for its window. */
export type WindowOutcome =
  | { kind: 'covered'; rows?: number }
  | { kind: 'failed'; reason: string; retryable: boolean };

/**
 * What an export's state means for the window it exports: covered once its data is safely kept
 * (archived, or COMPLETED where nothing is archived), failed once it ended otherwise or its
 * archive failed; undefined while that is not known yet. A refusal of the request itself and an
 * abort somebody asked for are final; everything else (the deadline, the upstream's own failure,
 * links that expired before the archive) may pass, so the window is exported again.
 */
export function windowOutcomeOf(record: ExportRecord, archiving: boolean): WindowOutcome | undefined {
  switch (record.status) {
    case ExportStatus.COMPLETED: {
      if (!archiving) return { kind: 'covered' };
      const archive = record.archive;
      if (archive?.status === ArchiveStatus.ARCHIVED) return { kind: 'covered', rows: archive.rows ?? 0 };
      if (archive?.status === ArchiveStatus.FAILED)
        return {
          kind: 'failed',
          reason: `the archive failed: ${archive.reason ?? 'no reason given'}`,
          retryable: true,
        };
      return undefined;
    }
    case ExportStatus.FAILED: {
      const reason = record.failureReason ?? 'the export failed';
      return { kind: 'failed', reason, retryable: !reason.startsWith(REQUEST_REJECTED_REASON_PREFIX) };
    }
    case ExportStatus.ABORTED:
      // Only the deadline abort leaves a reason; an abort somebody asked for is their decision.
      return record.failureReason === undefined
        ? { kind: 'failed', reason: 'aborted by request', retryable: false }
        : { kind: 'failed', reason: record.failureReason, retryable: true };
    default:
      return undefined;
  }
}

/** How an export of a window is started: its source, queue priority and origin, from who planned the window. */
export function exportStartOf(source: WindowSource): {
  source: ExportSource;
  origin?: ExportOrigin;
  priority: QueuePriority;
} {
  switch (source.kind) {
    case 'schedule':
      return { source: 'schedule', origin: { schedule: source.schedule }, priority: QueuePriority.FIRST };
    case 'backfill':
      return {
        source: 'backfill',
        origin: { backfillId: source.backfillId },
        priority: QueuePriority.BACKFILL,
      };
    default:
      return { source: 'api', priority: QueuePriority.FIRST };
  }
}

function windowSourceOf(record: ExportRecord): WindowSource {
  if (record.origin?.schedule !== undefined) return { kind: 'schedule', schedule: record.origin.schedule };
  if (record.origin?.backfillId !== undefined)
    return { kind: 'backfill', backfillId: record.origin.backfillId };
  return { kind: 'api' };
}

/** When an IN_FLIGHT window's export is checked next (the reconciler's safety net). */
export function nextCheckAt(deps: Pick<CoverageDependencies, 'settings' | 'now'>): string {
  return isoAt(deps.now() + deps.settings.reconcileStaleAfterSeconds * MS_PER_SECOND);
}

export interface PlannedWindowResult {
  window: CoverageWindow;
  /** False when the ledger had the window already: nothing new was started. */
  planned: boolean;
}

/**
 * Records a window of a spot and queues its export. A window with the same bounds already in the
 * ledger is left as it is (a planner that runs twice starts nothing twice); a GAP is planned again
 * only with `refillGap`. The window names its export before the export exists, so whoever finds
 * the window unstarted (the reconciler, after a crash) starts that same export.
 */
export async function planWindowExport(
  deps: WindowPlanningDependencies,
  spotId: string,
  interval: Interval,
  source: WindowSource,
  { refillGap = false, restate = [] }: { refillGap?: boolean; restate?: readonly string[] } = {},
): Promise<PlannedWindowResult> {
  const exportId = newExportId(deps.now());
  const { window, created } = await deps.coverage.claimWindow(
    {
      spotId,
      from: wholeSecondInstant(interval.fromMs),
      until: wholeSecondInstant(interval.untilMs),
      state: WindowState.IN_FLIGHT,
      source,
      exportId,
      exportIds: [exportId],
      attempts: 1,
      plannedAt: isoAt(deps.now()),
      ...(restate.length > 0 && { restate: [...restate] }),
      // If the export below is never recorded (a crash), the reconciler records it then.
      dueAt: isoAt(deps.now() + deps.settings.startLockLeaseSeconds * MS_PER_SECOND),
    },
    { replaceGap: refillGap },
  );
  if (!created) return { window, planned: false };
  deps.metrics.count('CoverageWindowsPlanned');
  return { window: await startWindowExport(deps, window), planned: true };
}

/**
 * Queues the export a window names (the same id every time, so a repeat finds it) and tells the
 * reconciler to look again later instead of soon.
 */
export async function startWindowExport(
  deps: WindowPlanningDependencies,
  window: CoverageWindow,
): Promise<CoverageWindow> {
  const { source, origin, priority } = exportStartOf(window.source);
  await startExport(deps, {
    spotId: window.spotId,
    request: { kind: 'dateRange', from: window.from, until: window.until },
    source,
    whenBusy: 'queue',
    priority,
    exportId: window.exportId,
    ...(origin !== undefined && { origin }),
  });
  const checked = await deps.coverage.updateWindow(window.spotId, window.from, window.until, {
    expectedExportId: window.exportId,
    expectedStates: [WindowState.IN_FLIGHT],
    changes: { dueAt: nextCheckAt(deps) },
  });
  return checked ?? window;
}

/**
 * `recordWindowOutcome` for callers that must not fail on it (the export's end is recorded
 * already): a failure is counted, and the window's due check settles it later.
 */
export async function recordWindowOutcomeLater(
  deps: WindowOutcomeDependencies,
  record: ExportRecord,
): Promise<void> {
  try {
    await recordWindowOutcome(deps, record);
  } catch {
    deps.metrics.count('CoverageOutcomesDeferred');
  }
}

/**
 * What an export's end means for its window, written to the ledger: covered (from any state: the
 * data is kept), or, for the window's current attempt, a retry after a cooldown that doubles each
 * time, or a GAP once the attempts are spent or the failure is final (announced once). An export
 * the ledger did not plan (an API start of a date range) adds its window when covered. Nothing to
 * do while the outcome is not known, for a conversation export, or for a restatement (a covered
 * window exported again: lib/exports/restatement records those, and never uncovers the window).
 * Each archived export is a version of its window; a covered window with restatement ages is due
 * again when its next one is.
 */
export async function recordWindowOutcome(
  deps: WindowOutcomeDependencies,
  record: ExportRecord,
): Promise<void> {
  if (record.request.kind !== 'dateRange' || record.origin?.restatement !== undefined) return;
  const outcome = windowOutcomeOf(record, deps.settings.archiving);
  if (outcome === undefined) return;
  const { from, until } = record.request;
  for (let attempt = 0; attempt < WINDOW_WRITE_ATTEMPTS; attempt += 1) {
    let window = await deps.coverage.getWindow(record.spotId, from, until);
    if (window === undefined) {
      if (outcome.kind !== 'covered') return;
      const { window: found, created } = await deps.coverage.claimWindow({
        spotId: record.spotId,
        from,
        until,
        state: WindowState.COVERED,
        source: windowSourceOf(record),
        exportId: record.exportId,
        exportIds: [record.exportId],
        attempts: 1,
        plannedAt: record.requestedAt,
        ...(outcome.rows !== undefined && { rows: outcome.rows }),
        coveredAt: isoAt(deps.now()),
        versions: [versionOf(record)],
      });
      if (created) return;
      window = found;
    }
    const written = await applyOutcome(deps, window, record, outcome);
    if (written !== 'lost race') return;
  }
}

async function applyOutcome(
  deps: WindowOutcomeDependencies,
  window: CoverageWindow,
  record: ExportRecord,
  outcome: WindowOutcome,
): Promise<'written' | 'nothing to do' | 'lost race'> {
  const { spotId, from, until } = window;
  if (outcome.kind === 'covered') {
    const versions = window.versions ?? [];
    if (
      window.state === WindowState.COVERED &&
      window.exportIds.includes(record.exportId) &&
      versions.some((version) => version.exportId === record.exportId)
    )
      return 'nothing to do';
    const covered: CoverageWindow = {
      ...window,
      state: WindowState.COVERED,
      exportIds: window.exportIds.includes(record.exportId)
        ? window.exportIds
        : [...window.exportIds, record.exportId],
      versions: versions.some((version) => version.exportId === record.exportId)
        ? versions
        : [...versions, versionOf(record)],
    };
    const next = nextRestatement(covered, deps.now());
    const update: WindowUpdate = {
      expectedVersion: window.version,
      changes: {
        state: covered.state,
        exportIds: covered.exportIds,
        versions: covered.versions as NonNullable<CoverageWindow['versions']>,
        ...(outcome.rows !== undefined && { rows: outcome.rows }),
        coveredAt:
          window.state === WindowState.COVERED ? (window.coveredAt ?? isoAt(deps.now())) : isoAt(deps.now()),
        // Due again at its next restatement age, if it has one left.
        ...(next !== undefined && { dueAt: isoAt(Math.max(next.dueAtMs, deps.now())) }),
      },
      remove: ['nextAttemptAt', 'reason', 'dueAt'],
    };
    return (await deps.coverage.updateWindow(spotId, from, until, update)) === undefined
      ? 'lost race'
      : 'written';
  }
  // Only the window's current attempt decides; an older attempt's failure is old news.
  if (window.exportId !== record.exportId || window.state !== WindowState.IN_FLIGHT) return 'nothing to do';
  const spent = window.attempts > deps.settings.windowRetryAttempts;
  if (!outcome.retryable || spent) {
    const reason =
      spent && outcome.retryable ? `${outcome.reason} (after ${window.attempts} attempts)` : outcome.reason;
    const gap = await deps.coverage.updateWindow(spotId, from, until, {
      expectedVersion: window.version,
      changes: { state: WindowState.GAP, reason },
      remove: ['nextAttemptAt', 'dueAt'],
    });
    if (gap === undefined) return 'lost race';
    deps.metrics.count('CoverageGaps');
    await publishOrCount(deps, () => deps.events.publishCoverageGap(gap));
    return 'written';
  }
  const cooldownMs = deps.settings.windowRetryCooldownSeconds * MS_PER_SECOND * 2 ** (window.attempts - 1);
  const nextAttemptAt = isoAt(deps.now() + cooldownMs);
  const retrying = await deps.coverage.updateWindow(spotId, from, until, {
    expectedVersion: window.version,
    changes: { state: WindowState.RETRYING, reason: outcome.reason, nextAttemptAt, dueAt: nextAttemptAt },
  });
  return retrying === undefined ? 'lost race' : 'written';
}

/** What the reconciler did with a window that was due. */
export type WindowAdvance = 'started' | 'retried' | 'settled' | 'waiting' | 'nothing to do';

/**
 * The reconciler's turn on a window that is due: a RETRYING one whose cooldown is over gets a new
 * export (a new attempt); an IN_FLIGHT one whose export was never recorded gets it recorded; one
 * whose export ended has its outcome written (if that was missed); one still running is looked at
 * again later.
 */
export async function advanceWindow(
  deps: CoverageDependencies,
  window: CoverageWindow,
): Promise<WindowAdvance> {
  const { spotId, from, until } = window;
  if (window.state === WindowState.RETRYING) {
    const exportId = newExportId(deps.now());
    const attempt = await deps.coverage.updateWindow(spotId, from, until, {
      expectedVersion: window.version,
      changes: {
        state: WindowState.IN_FLIGHT,
        exportId,
        exportIds: [...window.exportIds, exportId],
        attempts: window.attempts + 1,
        dueAt: isoAt(deps.now() + deps.settings.startLockLeaseSeconds * MS_PER_SECOND),
      },
      remove: ['nextAttemptAt'],
    });
    if (attempt === undefined) return 'nothing to do';
    deps.metrics.count('CoverageWindowsRetried');
    await startWindowExport(deps, attempt);
    return 'retried';
  }
  if (window.state !== WindowState.IN_FLIGHT) {
    await deps.coverage.updateWindow(spotId, from, until, {
      expectedVersion: window.version,
      changes: {},
      remove: ['dueAt'],
    });
    return 'nothing to do';
  }
  const record = await deps.store.getExport(spotId, window.exportId);
  if (record === undefined) {
    await startWindowExport(deps, window);
    return 'started';
  }
  if (windowOutcomeOf(record, deps.settings.archiving) === undefined) {
    await deps.coverage.updateWindow(spotId, from, until, {
      expectedExportId: window.exportId,
      expectedStates: [WindowState.IN_FLIGHT],
      changes: { dueAt: nextCheckAt(deps) },
    });
    return 'waiting';
  }
  await recordWindowOutcome(deps, record);
  return 'settled';
}
