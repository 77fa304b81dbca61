import { ArchiveStatus } from '../record/ExportArchive';
import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import type { ExportStore } from '../record/ExportStore';
import {
  type ErasedFile,
  ErasedFileState,
  type ErasureRecord,
  ErasureStatus,
  type ErasureVerification,
} from './ErasureRecord';
import type { ArchivedUserEraser, ErasureEvents, ErasureStore, UserRowsQuery } from './ports';

export interface ErasureDependencies {
  erasures: ErasureStore;
  store: Pick<ExportStore, 'listExports'>;
  eraser: ArchivedUserEraser;
  /** The table, asked at the end; absent: only the files are checked. */
  userRows?: UserRowsQuery;
  erasureEvents: ErasureEvents;
  /** Epoch ms. */
  now: () => number;
}

export interface RunErasureCommand {
  spotId: string;
  erasureId: string;
  /** Who runs it: the same run re-enters its lease, another waits for it to lapse. */
  runId: string;
  /** How long the lease lasts; renewed at every export. */
  leaseSeconds: number;
  /** Stop between exports once this much is done (`more`); no bound when absent. */
  slice?: ErasureSlice;
}

/** A bounded part of an erasure: a workflow task that must end before its function times out. */
export interface ErasureSlice {
  /** Epoch ms after which no further export is begun. */
  untilMs?: number;
  /** Exports erased at most. */
  maxExports?: number;
}

export interface RunErasureResult {
  /**
   * `finished`: COMPLETED or FAILED; `busy`: another run holds it; `waiting`: an export of the
   * spot was being archived when the user was suppressed, and is swept by a later run; `more`:
   * the slice ended with exports left, the lease still held by this run.
   */
  outcome: 'finished' | 'busy' | 'waiting' | 'more';
  record: ErasureRecord | undefined;
}

const MS_PER_SECOND = 1000;
const EXPORTS_PAGE_SIZE = 100;

/**
 * Erases the user from every archived export of the spot, export by export, recording each
 * export and each rewritten file as it goes, so a run that dies is resumed where it was by the
 * next (the reconciler's, or the local runtime's after a restart). At the end every archived file
 * is read again (and the table asked): COMPLETED with that check in the record when nothing of
 * the user is left, FAILED with the reason otherwise.
 * @throws ErasureChangedError when another run took the erasure over meanwhile
 */
export async function runErasure(
  deps: ErasureDependencies,
  command: RunErasureCommand,
): Promise<RunErasureResult> {
  const stored = await deps.erasures.get(command.spotId, command.erasureId);
  if (stored === undefined || stored.status !== ErasureStatus.RUNNING)
    return { outcome: 'finished', record: stored };
  let record: ErasureRecord = stored;
  const nowIso = () => new Date(deps.now()).toISOString();
  if (record.runId !== undefined && record.runId !== command.runId && (record.leaseUntil ?? '') > nowIso()) {
    return { outcome: 'busy', record };
  }
  const save = async (next: ErasureRecord): Promise<ErasureRecord> =>
    deps.erasures.save({
      ...next,
      runId: command.runId,
      leaseUntil: new Date(deps.now() + command.leaseSeconds * MS_PER_SECOND).toISOString(),
      updatedAt: nowIso(),
    });
  record = await save(record);

  const exports = await archivedExportsOf(deps, command.spotId);
  let erasedInSlice = 0;
  for (const exported of exports.archived) {
    if (record.exportsDone.includes(exported.exportId)) continue;
    // At least one export per slice, so every slice moves the erasure on.
    if (erasedInSlice > 0 && sliceEnded(command.slice, erasedInSlice, deps.now()))
      return { outcome: 'more', record };
    erasedInSlice++;
    const known = record.files.filter((file) => file.exportId === exported.exportId);
    const result = await deps.eraser.eraseFromExport(exported, record.userId, known, async (rewritten) => {
      record = await save(withFiles(record, rewritten));
    });
    const cleaned = [...known, ...result.rewritten].map((file) => ({
      ...file,
      state: ErasedFileState.CLEANED,
    }));
    record = await save({
      ...withFiles(record, cleaned),
      exportsDone: [...record.exportsDone, exported.exportId],
      filesRead: record.filesRead + result.filesRead,
    });
  }
  // An archive that began before the user was suppressed may still write their rows: swept next time.
  if (exports.pendingSince.some((claimedAt) => claimedAt <= record.requestedAt)) {
    return { outcome: 'waiting', record };
  }

  const verification = await verify(deps, record, exports.archived, nowIso());
  const clean =
    verification.rowsFound === 0 &&
    (verification.tableRowsFound ?? 0) === 0 &&
    verification.versionsLeft === 0;
  const { runId: _runId, leaseUntil: _leaseUntil, ...rest } = record;
  const finished = await deps.erasures.save({
    ...rest,
    status: clean ? ErasureStatus.COMPLETED : ErasureStatus.FAILED,
    verification,
    updatedAt: nowIso(),
    ...(clean
      ? { completedAt: nowIso() }
      : {
          reason:
            `the check at the end found ${verification.rowsFound} rows in the files, ` +
            `${verification.tableRowsFound ?? 0} in the table and ${verification.versionsLeft} old versions`,
        }),
  });
  if (clean) await deps.erasureEvents.publishErasureCompleted(finished);
  return { outcome: 'finished', record: finished };
}

function sliceEnded(slice: ErasureSlice | undefined, erased: number, nowMs: number): boolean {
  if (slice === undefined) return false;
  return (
    (slice.maxExports !== undefined && erased >= slice.maxExports) ||
    (slice.untilMs !== undefined && nowMs >= slice.untilMs)
  );
}

/** `record` with `files` recorded: an entry of the same new key replaced, others added. */
function withFiles(record: ErasureRecord, files: readonly ErasedFile[]): ErasureRecord {
  const keys = new Set(files.map((file) => file.key));
  return { ...record, files: [...record.files.filter((file) => !keys.has(file.key)), ...files] };
}

/** The spot's archived exports, oldest first, and when each archive still running was claimed. */
async function archivedExportsOf(
  deps: ErasureDependencies,
  spotId: string,
): Promise<{ archived: ExportRecord[]; pendingSince: string[] }> {
  const archived: ExportRecord[] = [];
  const pendingSince: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await deps.store.listExports(spotId, {
      limit: EXPORTS_PAGE_SIZE,
      status: ExportStatus.COMPLETED,
      ...(nextToken !== undefined && { nextToken }),
    });
    for (const record of page.items) {
      if (record.archive?.status === ArchiveStatus.ARCHIVED) archived.push(record);
      else if (record.archive?.status === ArchiveStatus.PENDING)
        pendingSince.push(record.archive.claimedAt ?? record.completedAt ?? record.requestedAt);
    }
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  archived.sort((a, b) => (a.exportId < b.exportId ? -1 : a.exportId > b.exportId ? 1 : 0));
  return { archived, pendingSince };
}

async function verify(
  deps: ErasureDependencies,
  record: ErasureRecord,
  archived: readonly ExportRecord[],
  checkedAt: string,
): Promise<ErasureVerification> {
  let filesChecked = 0;
  let rowsFound = 0;
  let versionsLeft = 0;
  for (const exported of archived) {
    const erasedKeys = record.files
      .filter((file) => file.exportId === exported.exportId)
      .flatMap((file) => [file.previousKey, file.previousParquetKey, file.key, file.parquetKey])
      .filter((key): key is string => key !== undefined);
    const check = await deps.eraser.checkExport(exported, record.userId, erasedKeys);
    filesChecked += check.filesChecked;
    rowsFound += check.rowsFound;
    versionsLeft += check.versionsLeft;
  }
  const checks = [
    `read every archived CSV file of spot ${record.spotId} (${filesChecked} files of ${archived.length} exports) ` +
      `for rows with user_id = '${record.userId}': ${rowsFound} found`,
    `listed the versions of every object rewritten (${record.files.length} files): ${versionsLeft} old versions left`,
  ];
  let tableRowsFound: number | undefined;
  if (deps.userRows !== undefined) {
    tableRowsFound = await deps.userRows.count(record.spotId, record.userId);
    checks.push(`${deps.userRows.describe(record.spotId, record.userId)}: ${tableRowsFound}`);
  }
  return {
    checkedAt,
    checks,
    filesChecked,
    rowsFound,
    versionsLeft,
    ...(tableRowsFound !== undefined && { tableRowsFound }),
  };
}
