/** Our own lifecycle of an export; the upstream's raw status string is kept separately. */
export const ExportStatus = {
  /** Waiting in its spot's queue: nothing recorded upstream, the spot not held, no workflow yet. */
  QUEUED: 'QUEUED',
  REQUESTED: 'REQUESTED',
  PROCESSING: 'PROCESSING',
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
  ABORTING: 'ABORTING',
  ABORTED: 'ABORTED',
} as const;

export type ExportStatus = (typeof ExportStatus)[keyof typeof ExportStatus];

export const EXPORT_STATUSES: readonly ExportStatus[] = Object.values(ExportStatus);

/** States that never change once reached. */
export const TERMINAL_STATUSES: readonly ExportStatus[] = [
  ExportStatus.COMPLETED,
  ExportStatus.FAILED,
  ExportStatus.ABORTED,
];

/** States of an export that still holds its spot: the reconciler watches these. */
export const ACTIVE_STATUSES: readonly ExportStatus[] = [
  ExportStatus.REQUESTED,
  ExportStatus.PROCESSING,
  ExportStatus.ABORTING,
];

export function isExportStatus(value: unknown): value is ExportStatus {
  return typeof value === 'string' && (EXPORT_STATUSES as readonly string[]).includes(value);
}

export function isTerminal(status: ExportStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export function isActive(status: ExportStatus): boolean {
  return ACTIVE_STATUSES.includes(status);
}
