import { createHash } from 'node:crypto';
import { type CoverageWindow, type WindowSource, WindowState } from '../coverage/CoverageLedger';
import { planWindowExport } from '../coverage/coverageWindows';
import { windowsBetween } from '../coverage/runSchedule';
import { ExportStatus } from '../record/ExportStatus';
import { IdempotencyConflictError } from '../record/errors';
import { sortedAges } from '../restatement/restatementAges';
import { refreshWindow } from '../restatement/restateWindow';
import { isoAt } from '../time/instants';
import { type Interval, wholeSecondInstant } from '../time/intervals';
import { withdrawBackfillWindows } from './abortBackfill';
import {
  type BackfillRecord,
  BackfillState,
  isWindowOfBackfill,
  MAX_BACKFILL_WINDOWS,
  newBackfillId,
} from './BackfillRecord';
import { expectedWindowSeconds } from './backfillProgress';
import { BackfillAlreadyExistsError, BackfillTooLargeError, BackfillWindowsTooLongError } from './errors';
import { planBackfill } from './planBackfill';
import type { BackfillDependencies } from './ports';
import { BACKFILL_ETA_SAMPLE_SIZE } from './readBackfill';

const MS_PER_SECOND = 1000;
const MS_PER_HOUR = 3_600_000;
/**
 * A planned window must be expected to take at most this share of the export deadline: exports of
 * one spot vary, and a window that needs the whole deadline is aborted as often as not.
 */
export const BACKFILL_WINDOW_DEADLINE_SHARE = 0.8;
/**
 * A request records windows for at most this long, then answers: what is left (a plan of hundreds
 * of windows) is recorded by the reconciler, as after a crash. Far below the API's 30 s limit.
 */
export const BACKFILL_RECORDING_BUDGET_SECONDS = 10;
/**
 * A backfill still recording this long after its creation was interrupted (its request records
 * for 10 s and its function times out at 20 s): the reconciler finishes it.
 */
export const BACKFILL_RECORDING_GRACE_SECONDS = 60;
/** Backfill keys live apart from the keys of single exports: one key cannot name both. */
const BACKFILL_KEY_NAMESPACE = 'backfill:';

export interface CreateBackfillCommand {
  spotId: string;
  /** RFC 3339 UTC, whole seconds. */
  from: string;
  until: string;
  windowHours: number;
  /** Also export again the covered windows of the range (each once, a new version of it). */
  refresh?: boolean;
  /** Same key + same request = same backfill, however often it is sent. */
  idempotencyKey?: string;
  /** Epoch ms after which the request stops recording windows and leaves the rest to the reconciler. */
  recordUntilMs?: number;
}

export interface CreateBackfillResult {
  record: BackfillRecord;
  /** True when the key had been used before and this answer is the earlier backfill. */
  replayed: boolean;
}

/**
 * Plans `[from, until)` into windows of at most `windowHours`, skipping what the coverage ledger
 * already holds (a gap is exported again), records the plan, then records each window in the
 * ledger with its export queued behind the spot's scheduled runs. Crash-safe and repeatable: the
 * plan is recorded (and the backfill put in the reconciler's view) before any window, each window
 * is claimed by its bounds so a repeat finds it, and a creation interrupted halfway (a crash, the
 * recording budget) is finished by the same key's retry or by the reconciler.
 * @throws CredentialsNotFoundError, InvalidCredentialsError (nothing recorded), BackfillTooLargeError,
 *   IdempotencyKeyReusedError
 */
export async function createBackfill(
  deps: BackfillDependencies,
  command: CreateBackfillCommand,
): Promise<CreateBackfillResult> {
  const { spotId } = command;
  await deps.credentials.getCredentials(spotId);
  const range = { fromMs: Date.parse(command.from), untilMs: Date.parse(command.until) };
  const known = await windowsBetween(deps.coverage, spotId, range.fromMs, range.untilMs);
  const plan = planBackfill(range, known, command.windowHours);
  const refreshed =
    command.refresh === true
      ? known.filter((window) => window.state === WindowState.COVERED).map(boundsOfWindow)
      : [];
  if (plan.windows.length > MAX_BACKFILL_WINDOWS)
    throw new BackfillTooLargeError(plan.windows.length, MAX_BACKFILL_WINDOWS);
  await assertWindowsFitDeadline(deps, spotId, plan.windows);
  const { backfillId, replayed } = await bindIdempotencyKey(deps, command);
  const existing = replayed ? await deps.backfills.get(spotId, backfillId) : undefined;
  let record = existing ?? (await recordPlan(deps, command, backfillId, plan, refreshed));
  if (!replayed) deps.metrics.count('BackfillsCreated');
  if (record.recording) {
    const recordUntilMs = command.recordUntilMs ?? Number.POSITIVE_INFINITY;
    record = await recordBackfillWindows(deps, record, recordUntilMs);
  }
  return { record, replayed };
}

/**
 * Refuses a plan whose longest window would, at the pace of the spot's recent exports, still run
 * when the export deadline aborts it. A spot that never finished an export of a date range has
 * no pace to go by: its plan is taken as it is.
 * @throws BackfillWindowsTooLongError
 */
async function assertWindowsFitDeadline(
  deps: Pick<BackfillDependencies, 'store' | 'settings'>,
  spotId: string,
  windows: readonly Interval[],
): Promise<void> {
  if (windows.length === 0) return;
  const longestHours = Math.max(...windows.map((window) => (window.untilMs - window.fromMs) / MS_PER_HOUR));
  const recent = (
    await deps.store.listExports(spotId, { status: ExportStatus.COMPLETED, limit: BACKFILL_ETA_SAMPLE_SIZE })
  ).items;
  const expected = expectedWindowSeconds(longestHours, recent);
  const { exportDeadlineSeconds } = deps.settings;
  const allowed = exportDeadlineSeconds * BACKFILL_WINDOW_DEADLINE_SHARE;
  if (expected === undefined || expected <= allowed) return;
  throw new BackfillWindowsTooLongError({
    windowHours: longestHours,
    expectedWindowSeconds: expected,
    exportDeadlineSeconds,
    maxWindowHours: Math.max(1, Math.floor((longestHours * allowed) / expected)),
  });
}

async function recordPlan(
  deps: BackfillDependencies,
  command: CreateBackfillCommand,
  backfillId: string,
  plan: ReturnType<typeof planBackfill>,
  refreshed: readonly { from: string; until: string }[],
): Promise<BackfillRecord> {
  try {
    return await deps.backfills.create({
      spotId: command.spotId,
      backfillId,
      from: command.from,
      until: command.until,
      windowHours: command.windowHours,
      windows: plan.windows.map(boundsOf),
      skipped: plan.skipped.map(boundsOf),
      ...(command.refresh === true && { refreshed: [...refreshed] }),
      state: BackfillState.ACTIVE,
      recording: true,
      createdAt: isoAt(deps.now()),
      ...(command.idempotencyKey !== undefined && { idempotencyKey: command.idempotencyKey }),
    });
  } catch (error) {
    if (error instanceof BackfillAlreadyExistsError && error.existing !== undefined) return error.existing;
    throw error;
  }
}

async function bindIdempotencyKey(
  deps: Pick<BackfillDependencies, 'idempotencyKeys' | 'settings' | 'now'>,
  command: CreateBackfillCommand,
): Promise<{ backfillId: string; replayed: boolean }> {
  const backfillId = newBackfillId(deps.now());
  if (command.idempotencyKey === undefined) return { backfillId, replayed: false };
  try {
    // The key's record names the backfill where a single export's names the export.
    await deps.idempotencyKeys.put(command.spotId, `${BACKFILL_KEY_NAMESPACE}${command.idempotencyKey}`, {
      exportId: backfillId,
      requestFingerprint: backfillFingerprint(command),
      expiresAtEpochSeconds: Math.floor(deps.now() / MS_PER_SECOND) + deps.settings.idempotencyTtlSeconds,
    });
    return { backfillId, replayed: false };
  } catch (error) {
    // A different request under the same key (IdempotencyKeyReusedError) goes to the caller.
    if (error instanceof IdempotencyConflictError)
      return { backfillId: error.existing.exportId, replayed: true };
    throw error;
  }
}

/** Stable hash of what was asked, to tell a retry from a reuse of the key for another backfill. */
export function backfillFingerprint(
  command: Pick<CreateBackfillCommand, 'spotId' | 'from' | 'until' | 'windowHours' | 'refresh'>,
): string {
  const canonical = JSON.stringify([
    command.spotId,
    'backfill',
    command.from,
    command.until,
    command.windowHours,
    // Only a refresh adds to it, so the keys of earlier backfills still match their retries.
    ...(command.refresh === true ? ['refresh'] : []),
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * Records each window of the plan the ledger does not hold for this backfill yet, with its
 * export queued; then takes the backfill out of the reconciler's view. A backfill aborted while
 * it was recorded has the windows it just recorded withdrawn again. Stops early (the backfill still
 * recording) once `recordUntilMs` passes: the reconciler goes on from there.
 */
export async function recordBackfillWindows(
  deps: BackfillDependencies,
  record: BackfillRecord,
  recordUntilMs: number,
): Promise<BackfillRecord> {
  const { spotId, backfillId } = record;
  const source: WindowSource = { kind: 'backfill', backfillId };
  const restate = await spotRestatementAges(deps, spotId);
  if (record.state === BackfillState.ACTIVE) {
    for (const planned of record.windows) {
      if (deps.now() >= recordUntilMs) return record;
      const existing = await deps.coverage.getWindow(spotId, planned.from, planned.until);
      if (existing !== undefined && isWindowOfBackfill(existing, backfillId)) continue;
      // A window of another planner with the same bounds stays theirs: nothing is exported twice.
      await planWindowExport(deps, spotId, intervalOf(planned), source, { refillGap: true, restate });
    }
    // Asked to refresh: each covered window of the range exported again, once for this backfill.
    for (const covered of record.refreshed ?? []) {
      if (deps.now() >= recordUntilMs) return record;
      await refreshWindow(deps, spotId, covered, backfillId);
    }
  }
  const recorded = await deps.backfills.markRecorded(spotId, backfillId);
  if (recorded.state === BackfillState.ABORTED) await withdrawBackfillWindows(deps, recorded);
  return recorded;
}

/**
 * The reconciler's turn on backfills whose creation was interrupted: each is recorded to its end
 * (until `recordUntilMs`). Answers how many it finished.
 */
export async function finishInterruptedBackfills(
  deps: BackfillDependencies,
  limit: number,
  recordUntilMs: number,
): Promise<number> {
  const before = isoAt(deps.now() - BACKFILL_RECORDING_GRACE_SECONDS * MS_PER_SECOND);
  let finished = 0;
  for (const backfill of await deps.backfills.findRecording(before, limit)) {
    if (deps.now() >= recordUntilMs) break;
    const current = await deps.backfills.get(backfill.spotId, backfill.backfillId);
    if (current === undefined || !current.recording) continue;
    const recorded = await recordBackfillWindows(deps, current, recordUntilMs);
    if (!recorded.recording) finished += 1;
  }
  return finished;
}

/**
 * The ages at which the spot's schedules restate their windows, which its backfill windows follow
 * too (each window is restated only at the ages it is not yet that old when first exported, so a
 * backfill of old hours is settled by its first export).
 */
async function spotRestatementAges(deps: BackfillDependencies, spotId: string): Promise<string[]> {
  const ages = new Set(
    (await deps.coverage.listWatermarks(spotId)).flatMap((watermark) => watermark.restate ?? []),
  );
  return sortedAges([...ages]);
}

function boundsOfWindow(window: CoverageWindow): { from: string; until: string } {
  return { from: window.from, until: window.until };
}

function intervalOf(window: { from: string; until: string }): Interval {
  return { fromMs: Date.parse(window.from), untilMs: Date.parse(window.until) };
}

function boundsOf(interval: Interval): { from: string; until: string } {
  return { from: wholeSecondInstant(interval.fromMs), until: wholeSecondInstant(interval.untilMs) };
}
