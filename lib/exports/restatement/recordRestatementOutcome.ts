import { type CoverageWindow, RestatementState, type WindowUpdate } from '../coverage/CoverageLedger';
import { windowOutcomeOf } from '../coverage/coverageWindows';
import { nextRestatement, REFRESH_AGE, versionOf } from '../coverage/windowVersions';
import type { ExportRecord } from '../record/ExportRecord';
import { isoAt } from '../time/instants';
import type { RestatementOutcomeDependencies } from './ports';

const MS_PER_SECOND = 1000;
/** Tries of a read-modify-write of a window that lost a race. */
const WINDOW_WRITE_ATTEMPTS = 3;

/**
 * What a restatement's end means for its window, which stays COVERED whatever happens: archived,
 * it is a new version of the window (the newest), and the window is due again at its next age, or
 * settled; failed for a reason that may pass, it is tried again after the window's cooldown (the
 * same cooldown and attempts as any window); given up, the window keeps its older version and says
 * so (`restatement.state: GIVEN_UP`, the age in `givenUpAges`, never tried again).
 */
export async function recordRestatementOutcome(
  deps: RestatementOutcomeDependencies,
  record: ExportRecord,
): Promise<void> {
  if (record.request.kind !== 'dateRange' || record.origin?.restatement === undefined) return;
  const outcome = windowOutcomeOf(record, deps.settings.archiving);
  if (outcome === undefined) return;
  const { from, until } = record.request;
  for (let attempt = 0; attempt < WINDOW_WRITE_ATTEMPTS; attempt += 1) {
    const window = await deps.coverage.getWindow(record.spotId, from, until);
    if (window === undefined) return;
    const update =
      outcome.kind === 'covered'
        ? archivedUpdate(deps, window, record, outcome.rows)
        : failedUpdate(deps, window, record, outcome.reason, outcome.retryable);
    if (update === undefined) return;
    const written = await deps.coverage.updateWindow(record.spotId, from, until, update);
    if (written === undefined) continue;
    if (outcome.kind === 'covered') deps.metrics.count('RestatementsArchived');
    else if (written.restatement?.state === RestatementState.GIVEN_UP)
      deps.metrics.count('RestatementsGivenUp');
    return;
  }
}

function dueAfter(
  deps: RestatementOutcomeDependencies,
  window: CoverageWindow,
): Pick<WindowUpdate, 'remove'> & {
  dueAt?: string;
} {
  const next = nextRestatement(window, deps.now());
  return next === undefined ? { remove: ['dueAt'] } : { dueAt: isoAt(Math.max(next.dueAtMs, deps.now())) };
}

function archivedUpdate(
  deps: RestatementOutcomeDependencies,
  window: CoverageWindow,
  record: ExportRecord,
  rows: number | undefined,
): WindowUpdate | undefined {
  const versions = window.versions ?? [];
  if (versions.some((version) => version.exportId === record.exportId)) return undefined;
  const current = window.restatement;
  const isCurrent = current?.exportId === record.exportId;
  const restated: CoverageWindow = {
    ...window,
    // `exportIds` stays the window's own attempts: a restatement's exports are its versions and its restatement's.
    versions: [...versions, versionOf(record)],
    ...(isCurrent &&
      current !== undefined && {
        restatement: {
          age: current.age,
          state: RestatementState.ARCHIVED,
          exportId: current.exportId as string,
          exportIds: current.exportIds,
          attempts: current.attempts,
          dueSince: current.dueSince,
          ...(current.backfillId !== undefined && { backfillId: current.backfillId }),
        },
      }),
  };
  const { dueAt, remove } = dueAfter(deps, restated);
  return {
    expectedVersion: window.version,
    changes: {
      versions: restated.versions as NonNullable<CoverageWindow['versions']>,
      ...(rows !== undefined && { rows }),
      ...(restated.restatement !== undefined && { restatement: restated.restatement }),
      ...(dueAt !== undefined && { dueAt }),
    },
    ...(remove !== undefined && { remove }),
  };
}

function failedUpdate(
  deps: RestatementOutcomeDependencies,
  window: CoverageWindow,
  record: ExportRecord,
  reason: string,
  retryable: boolean,
): WindowUpdate | undefined {
  const current = window.restatement;
  // Only the restatement's current attempt decides; an older attempt's failure is old news.
  if (current?.exportId !== record.exportId || current.state !== RestatementState.IN_FLIGHT) return undefined;
  const spent = current.attempts > deps.settings.windowRetryAttempts;
  if (!retryable || spent) {
    const givenUp: CoverageWindow = {
      ...window,
      restatement: {
        ...current,
        state: RestatementState.GIVEN_UP,
        reason: spent && retryable ? `${reason} (after ${current.attempts} attempts)` : reason,
      },
      // A refresh given up leaves the ages as they were.
      givenUpAges:
        current.age === REFRESH_AGE
          ? (window.givenUpAges ?? [])
          : [...(window.givenUpAges ?? []), current.age],
    };
    const { dueAt, remove } = dueAfter(deps, givenUp);
    return {
      expectedVersion: window.version,
      changes: {
        restatement: givenUp.restatement as NonNullable<CoverageWindow['restatement']>,
        ...((givenUp.givenUpAges ?? []).length > 0 && { givenUpAges: givenUp.givenUpAges as string[] }),
        ...(dueAt !== undefined && { dueAt }),
      },
      ...(remove !== undefined && { remove }),
    };
  }
  const cooldownMs = deps.settings.windowRetryCooldownSeconds * MS_PER_SECOND * 2 ** (current.attempts - 1);
  const nextAttemptAt = isoAt(deps.now() + cooldownMs);
  return {
    expectedVersion: window.version,
    changes: {
      restatement: { ...current, state: RestatementState.RETRYING, reason, nextAttemptAt },
      dueAt: nextAttemptAt,
    },
  };
}
