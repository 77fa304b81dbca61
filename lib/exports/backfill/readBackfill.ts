import { type CoverageWindow, WindowState } from '../coverage/CoverageLedger';
import { windowsBetween } from '../coverage/runSchedule';
import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus, isActive } from '../record/ExportStatus';
import type { BackfillRecord } from './BackfillRecord';
import { type BackfillProgress, backfillProgress, windowKey } from './backfillProgress';
import { BackfillNotFoundError } from './errors';
import type { BackfillDependencies } from './ports';

/** The spot's recent completed exports the ETA learns from. */
export const BACKFILL_ETA_SAMPLE_SIZE = 20;
/** Queued exports read per page while telling queued windows from running ones. */
const QUEUE_PAGE_SIZE = 100;

export interface BackfillReport {
  record: BackfillRecord;
  progress: BackfillProgress;
}

/** The backfill and where each of its windows stands. @throws BackfillNotFoundError */
export async function readBackfill(
  deps: BackfillDependencies,
  spotId: string,
  backfillId: string,
): Promise<BackfillReport> {
  const record = await deps.backfills.get(spotId, backfillId);
  if (record === undefined) throw new BackfillNotFoundError(spotId, backfillId);
  return { record, progress: await backfillProgressOf(deps, record) };
}

/** Where each window of the backfill stands, read from the ledger and the spot's queue. */
export async function backfillProgressOf(
  deps: Pick<BackfillDependencies, 'coverage' | 'store' | 'now'>,
  record: BackfillRecord,
): Promise<BackfillProgress> {
  const { spotId } = record;
  const ledger = new Map<string, CoverageWindow>();
  if (record.windows.length > 0) {
    // A refilled gap may reach past the range: read what the plan spans.
    const fromMs = Math.min(...record.windows.map((window) => Date.parse(window.from)));
    const untilMs = Math.max(...record.windows.map((window) => Date.parse(window.until)));
    for (const window of await windowsBetween(deps.coverage, spotId, fromMs, untilMs))
      ledger.set(windowKey(window), window);
  }
  const inFlight = record.windows
    .map((planned) => ledger.get(windowKey(planned)))
    .filter((window) => window?.state === WindowState.IN_FLIGHT);
  const queuedExportIds = inFlight.length === 0 ? new Set<string>() : await queuedExportIdsOf(deps, spotId);
  const running: ExportRecord[] = [];
  for (const window of inFlight) {
    if (window === undefined || queuedExportIds.has(window.exportId)) continue;
    const exported = await deps.store.getExport(spotId, window.exportId, { consistentRead: false });
    if (exported !== undefined && isActive(exported.status)) running.push(exported);
  }
  const recentCompleted = (
    await deps.store.listExports(spotId, { status: ExportStatus.COMPLETED, limit: BACKFILL_ETA_SAMPLE_SIZE })
  ).items;
  return backfillProgress({ record, ledger, queuedExportIds, running, recentCompleted, nowMs: deps.now() });
}

async function queuedExportIdsOf(
  deps: Pick<BackfillDependencies, 'store'>,
  spotId: string,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let nextToken: string | undefined;
  do {
    const page = await deps.store.listExports(spotId, {
      status: ExportStatus.QUEUED,
      limit: QUEUE_PAGE_SIZE,
      ...(nextToken !== undefined && { nextToken }),
    });
    for (const record of page.items) ids.add(record.exportId);
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  return ids;
}
