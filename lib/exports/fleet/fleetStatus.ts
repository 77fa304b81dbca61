import { BackfillState } from '../backfill/BackfillRecord';
import { BackfillStatus } from '../backfill/backfillProgress';
import { backfillProgressOf } from '../backfill/readBackfill';
import { WindowState } from '../coverage/CoverageLedger';
import { hoursOf } from '../coverage/coverageOfWindows';
import { windowsBetween } from '../coverage/runSchedule';
import { currencyOf, isRestatementWaiting, WindowCurrency } from '../coverage/windowVersions';
import { ExportStatus } from '../record/ExportStatus';
import { InvalidPaginationTokenError } from '../record/errors';
import { isoAt } from '../time/instants';
import { coveredMs, mergeIntervals, subtractIntervals } from '../time/intervals';
import { UnknownSpotError } from './errors';
import type { FleetDependencies } from './ports';
import { type SpotFreshness, spotFreshness } from './spotFreshness';

const MS_PER_SECOND = 1000;
const MS_PER_DAY = 24 * 60 * 60 * MS_PER_SECOND;
/** How far back a spot's windows are read: its gaps and its freshness are judged over these days. */
export const FLEET_LOOKBACK_DAYS = 30;
export const DEFAULT_FLEET_PAGE_SPOTS = 50;
export const MAX_FLEET_PAGE_SPOTS = 100;
/** Spots read at once while building a page. */
const SPOTS_READ_IN_PARALLEL = 8;
/** Open backfills whose progress a spot's line shows. */
const MAX_BACKFILLS_SHOWN = 5;
/** Active and queued exports read to find spots that have work but no configuration. */
const UNCONFIGURED_SPOTS_SCAN = 100;
const QUEUE_PAGE_SIZE = 100;

/** The export holding the spot. */
export interface RunningExportView {
  exportId: string;
  status: ExportStatus;
  /** When it took the spot. */
  since: string;
  ageSeconds: number;
}

export interface OpenBackfillView {
  backfillId: string;
  from: string;
  until: string;
  status: BackfillStatus;
  windowsDone: number;
  windowsTotal: number;
  gaps: number;
}

export interface GapsView {
  /** Windows given up on in the last days. */
  count: number;
  /** Their hours no other window covers. */
  hours: number;
  newestReason?: string;
  newestFrom?: string;
}

/** How current the spot's covered hours are: what restatement has still to re-read. */
export interface RestatementsView {
  /** Of the last days' covered hours, those no settled window holds: a restatement is still to come. */
  provisionalHours: number;
  /** Covered windows whose restatement is due but waits for the spot's daily budget. */
  waiting: number;
}

export interface LastFailureView {
  exportId: string;
  at: string;
  reason: string;
}

/** One spot of the fleet at a glance. */
export interface SpotStatus extends SpotFreshness {
  spotId: string;
  /** In the deployment's configuration (else known by its exports only). */
  configured: boolean;
  running?: RunningExportView;
  /** Exports waiting in the spot's queue. */
  queued: number;
  backfills: OpenBackfillView[];
  /** Of the last FLEET_LOOKBACK_DAYS days. */
  gaps: GapsView;
  /** Of the last FLEET_LOOKBACK_DAYS days. */
  restatements: RestatementsView;
  lastFailure?: LastFailureView;
}

/** What the fleet's views read: the records, the ledger, the locks and the backfills. */
export type FleetReadDependencies = Pick<
  FleetDependencies,
  'store' | 'coverage' | 'spotLocks' | 'backfills' | 'settings' | 'now'
> &
  Partial<Pick<FleetDependencies, 'freshnessMarks'>>;

export interface FleetQuery {
  /** Only these spots (the caller's, in a per-spot authorization mode); undefined: every spot. */
  allowedSpots?: ReadonlySet<string>;
  /** Only these spots, each of which must be known. @throws UnknownSpotError */
  spotIds?: readonly string[];
  /** The known spot an unknown one was probably meant to be (lib/text's suggestion), for the error. */
  nearestSpot?: (spotId: string, known: readonly string[]) => string | undefined;
  limit?: number;
  nextToken?: string;
}

export interface FleetPage {
  items: SpotStatus[];
  nextToken?: string;
}

/**
 * The spots the deployment knows: those configured, and those with an export running or queued
 * (spots used over the API only). Sorted by id.
 */
export async function knownSpots(
  deps: Pick<FleetDependencies, 'store' | 'settings' | 'now'>,
): Promise<string[]> {
  const configured = Object.keys(deps.settings.freshnessTargets ?? {});
  const active = await deps.store.findActiveNotPolledSince(
    isoAt(deps.now() + MS_PER_DAY),
    UNCONFIGURED_SPOTS_SCAN,
  );
  const queued = await deps.store.findQueued(UNCONFIGURED_SPOTS_SCAN);
  const used = await deps.store.listSpots(UNCONFIGURED_SPOTS_SCAN);
  return [
    ...new Set([...configured, ...used, ...active.map((r) => r.spotId), ...queued.map((r) => r.spotId)]),
  ].sort();
}

/**
 * The fleet a page at a time, in spot order: each spot's freshness, what runs and waits, its open
 * backfills, its recent gaps and its last failure. Read only.
 * @throws InvalidPaginationTokenError, UnknownSpotError
 */
export async function fleetStatus(deps: FleetReadDependencies, query: FleetQuery = {}): Promise<FleetPage> {
  const limit = Math.min(Math.max(query.limit ?? DEFAULT_FLEET_PAGE_SPOTS, 1), MAX_FLEET_PAGE_SPOTS);
  const known = await knownSpots(deps);
  const visible = known.filter((spotId) => query.allowedSpots?.has(spotId) ?? true);
  if (query.spotIds !== undefined) {
    for (const spotId of query.spotIds) {
      if (!visible.includes(spotId)) throw new UnknownSpotError(spotId, query.nearestSpot?.(spotId, visible));
    }
  }
  const wanted = query.spotIds === undefined ? visible : visible.filter((id) => query.spotIds?.includes(id));
  const after = query.nextToken === undefined ? undefined : decodeFleetToken(query.nextToken);
  const rest = after === undefined ? wanted : wanted.filter((spotId) => spotId > after);
  const pageSpots = rest.slice(0, limit);
  const items: SpotStatus[] = [];
  for (let index = 0; index < pageSpots.length; index += SPOTS_READ_IN_PARALLEL) {
    const batch = pageSpots.slice(index, index + SPOTS_READ_IN_PARALLEL);
    items.push(...(await Promise.all(batch.map((spotId) => spotStatus(deps, spotId)))));
  }
  const last = pageSpots.at(-1);
  return {
    items,
    ...(rest.length > limit && last !== undefined && { nextToken: encodeFleetToken(last) }),
  };
}

/** One spot's status, read from the ledger, the queue, the spot lock and the backfills. */
export async function spotStatus(deps: FleetReadDependencies, spotId: string): Promise<SpotStatus> {
  const nowMs = deps.now();
  const targets = deps.settings.freshnessTargets ?? {};
  const [windows, watermarks, mark] = await Promise.all([
    windowsBetween(deps.coverage, spotId, nowMs - FLEET_LOOKBACK_DAYS * MS_PER_DAY, nowMs),
    deps.coverage.listWatermarks(spotId),
    deps.freshnessMarks?.get(spotId),
  ]);
  const freshness = spotFreshness({
    windows,
    watermarks,
    targetSeconds: targets[spotId],
    nowMs,
    ...(mark?.watchedSince !== undefined && { watchedSince: mark.watchedSince }),
  });
  const [running, queued, backfills, lastFailure] = await Promise.all([
    runningExport(deps, spotId, nowMs),
    queueDepth(deps, spotId),
    openBackfills(deps, spotId),
    lastFailureOf(deps, spotId),
  ]);
  const gapWindows = windows
    .filter((window) => window.state === WindowState.GAP)
    .sort((a, b) => (a.from < b.from ? 1 : -1));
  const coveredOrMoving = windows.filter((window) => window.state !== WindowState.GAP);
  const openGapMs = gapWindows.reduce((total, gap) => {
    const covering = coveredOrMoving.filter((w) => w.from < gap.until && w.until > gap.from);
    return covering.length > 0 ? total : total + Date.parse(gap.until) - Date.parse(gap.from);
  }, 0);
  const newest = gapWindows[0];
  const covered = windows.filter((window) => window.state === WindowState.COVERED);
  const intervalOf = (window: { from: string; until: string }) => ({
    fromMs: Date.parse(window.from),
    untilMs: Date.parse(window.until),
  });
  const settled = covered.filter((window) => currencyOf(window) === WindowCurrency.SETTLED).map(intervalOf);
  const provisional = mergeIntervals(
    covered.filter((window) => currencyOf(window) === WindowCurrency.PROVISIONAL).map(intervalOf),
  ).flatMap((interval) => subtractIntervals(interval, settled));
  return {
    spotId,
    configured: spotId in targets,
    ...freshness,
    ...(running !== undefined && { running }),
    queued,
    backfills,
    gaps: {
      count: gapWindows.length,
      hours: hoursOf(openGapMs),
      ...(newest !== undefined && {
        newestReason: newest.reason ?? 'no reason was recorded',
        newestFrom: newest.from,
      }),
    },
    restatements: {
      provisionalHours: hoursOf(coveredMs(provisional)),
      waiting: covered.filter(isRestatementWaiting).length,
    },
    ...(lastFailure !== undefined && { lastFailure }),
  };
}

async function runningExport(
  deps: FleetReadDependencies,
  spotId: string,
  nowMs: number,
): Promise<RunningExportView | undefined> {
  const lock = await deps.spotLocks.get(spotId);
  if (lock === undefined) return undefined;
  const record = await deps.store.getExport(spotId, lock.exportId, { consistentRead: false });
  const since = lock.acquiredAt;
  return {
    exportId: lock.exportId,
    status: record?.status ?? ExportStatus.REQUESTED,
    since,
    ageSeconds: Math.max(0, Math.round((nowMs - Date.parse(since)) / MS_PER_SECOND)),
  };
}

async function queueDepth(deps: FleetReadDependencies, spotId: string): Promise<number> {
  let depth = 0;
  let nextToken: string | undefined;
  do {
    const page = await deps.store.listExports(spotId, {
      status: ExportStatus.QUEUED,
      limit: QUEUE_PAGE_SIZE,
      ...(nextToken !== undefined && { nextToken }),
    });
    depth += page.items.length;
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  return depth;
}

async function openBackfills(deps: FleetReadDependencies, spotId: string): Promise<OpenBackfillView[]> {
  const { items } = await deps.backfills.listForSpot(spotId, { limit: MAX_BACKFILLS_SHOWN * 2 });
  const open: OpenBackfillView[] = [];
  for (const record of items.filter((backfill) => backfill.state === BackfillState.ACTIVE)) {
    if (open.length >= MAX_BACKFILLS_SHOWN) break;
    const progress = await backfillProgressOf(deps, record);
    if (progress.status !== BackfillStatus.RUNNING) continue;
    open.push({
      backfillId: record.backfillId,
      from: record.from,
      until: record.until,
      status: progress.status,
      windowsDone: progress.counts.done,
      windowsTotal: progress.counts.total,
      gaps: progress.counts.gaps,
    });
  }
  return open;
}

async function lastFailureOf(
  deps: FleetReadDependencies,
  spotId: string,
): Promise<LastFailureView | undefined> {
  const { items } = await deps.store.listExports(spotId, { status: ExportStatus.FAILED, limit: 1 });
  const failed = items[0];
  if (failed === undefined) return undefined;
  return {
    exportId: failed.exportId,
    at: failed.completedAt ?? failed.requestedAt,
    reason: failed.failureReason ?? 'no reason was recorded',
  };
}

function encodeFleetToken(afterSpotId: string): string {
  return Buffer.from(JSON.stringify({ after: afterSpotId }), 'utf8').toString('base64url');
}

function decodeFleetToken(token: string): string {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    const after = (decoded as { after?: unknown } | null)?.after;
    if (typeof after === 'string' && after.length <= 256) return after;
  } catch (error) {
    throw new InvalidPaginationTokenError({ cause: error });
  }
  throw new InvalidPaginationTokenError();
}
