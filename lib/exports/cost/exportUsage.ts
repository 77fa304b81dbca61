import { archiveFileCount } from '../record/ExportArchive';
import type { ExportRecord } from '../record/ExportRecord';
import { ExportStatus } from '../record/ExportStatus';
import type { ExportUsage } from './exportCostSchema';

/** What one export used (./exportCostSchema.ts). */
export type { ExportUsage };

/** Sizes the counts assume where nothing is measured (from the price table). */
export interface UsageAssumptions {
  workflowTaskGb: number;
  workflowTaskBilledSeconds: number;
  startGb: number;
  startBilledSeconds: number;
  archiveGb: number;
  archiveBilledSecondsPerMb: number;
}

/**
 * Writes every started export makes besides its polls: the idempotency key, the spot lock, the
 * record, the create claim, PROCESSING, the final write with its links (2 units) and the lock's
 * release.
 */
export const WRITES_PER_EXPORT = 8;
/** Reads besides the polls': the record at create, the history before the first poll, the queue. */
export const READS_PER_EXPORT = 3;
/** Each poll reads the record and the spot's shared token. */
export const READS_PER_POLL = 2;
/** The archive claims, then records its result. */
export const ARCHIVE_WRITES = 2;
/**
 * Transitions besides the create attempts and the polls: the first wait, the choice after the
 * polls and the final state.
 */
export const FIXED_TRANSITIONS = 3;
const BYTES_PER_MB = 1024 * 1024;

/** An export's usage from its record (zero for one still queued: it has used nothing yet). */
export function exportUsage(record: ExportRecord, assumptions: UsageAssumptions): ExportUsage {
  if (record.status === ExportStatus.QUEUED) return emptyUsage();
  const creates = record.createAttempts ?? (record.upstreamExportId === undefined ? 0 : 1);
  const polls = record.pollCount;
  const archived = record.archive !== undefined;
  const archiveBytes = record.archive?.bytes ?? 0;
  const archiveSeconds = archived ? (archiveBytes / BYTES_PER_MB) * assumptions.archiveBilledSecondsPerMb : 0;
  const started = creates > 0;
  return {
    stateTransitions: started ? creates + polls + FIXED_TRANSITIONS + (archived ? 1 : 0) : 0,
    taskInvocations: 1 + creates + polls + (archived ? 1 : 0),
    billedGbSeconds:
      assumptions.startGb * assumptions.startBilledSeconds +
      (creates + polls) * assumptions.workflowTaskGb * assumptions.workflowTaskBilledSeconds +
      // An archive invocation is billed at least a second.
      (archived ? assumptions.archiveGb * Math.max(1, archiveSeconds) : 0),
    upstreamCalls: creates + polls,
    tableReads: READS_PER_EXPORT + READS_PER_POLL * polls,
    tableWrites: WRITES_PER_EXPORT + polls + (archived ? ARCHIVE_WRITES : 0),
    archiveBytes,
    archiveFiles: archived ? archiveFileCount(record.archive) * 2 : 0,
  };
}

export function emptyUsage(): ExportUsage {
  return {
    stateTransitions: 0,
    taskInvocations: 0,
    billedGbSeconds: 0,
    upstreamCalls: 0,
    tableReads: 0,
    tableWrites: 0,
    archiveBytes: 0,
    archiveFiles: 0,
  };
}

/** The sum of several exports' usage. */
export function addUsage(a: ExportUsage, b: ExportUsage): ExportUsage {
  return {
    stateTransitions: a.stateTransitions + b.stateTransitions,
    taskInvocations: a.taskInvocations + b.taskInvocations,
    billedGbSeconds: a.billedGbSeconds + b.billedGbSeconds,
    upstreamCalls: a.upstreamCalls + b.upstreamCalls,
    tableReads: a.tableReads + b.tableReads,
    tableWrites: a.tableWrites + b.tableWrites,
    archiveBytes: a.archiveBytes + b.archiveBytes,
    archiveFiles: a.archiveFiles + b.archiveFiles,
  };
}
