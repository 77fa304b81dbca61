import { type ErasureRecord, rowsRemovedBy } from '../exports/erasure/ErasureRecord';
import type { ErasureView } from './erasureViewSchema';

/** An erasure as every erasure route answers it: no lease, no Parquet keys, never a row. */
export function erasureView(record: ErasureRecord): ErasureView {
  return {
    erasureId: record.erasureId,
    spotId: record.spotId,
    userId: record.userId,
    status: record.status,
    ...(record.reason !== undefined && { reason: record.reason }),
    requestedAt: record.requestedAt,
    updatedAt: record.updatedAt,
    ...(record.completedAt !== undefined && { completedAt: record.completedAt }),
    exportsDone: record.exportsDone.length,
    filesRead: record.filesRead,
    filesRewritten: record.files.length,
    rowsRemoved: rowsRemovedBy(record),
    files: record.files.map((file) => ({
      exportId: file.exportId,
      name: file.name,
      key: file.key,
      previousKey: file.previousKey,
      rowsRemoved: file.rowsRemoved,
      rows: file.rows,
      sha256: file.sha256,
      state: file.state,
    })),
    ...(record.verification !== undefined && { verification: record.verification }),
  };
}

/** Where an erasure is read: its `Location`. */
export function erasureLocation(spotId: string, erasureId: string): string {
  return `/spots/${spotId}/erasures/${erasureId}`;
}
