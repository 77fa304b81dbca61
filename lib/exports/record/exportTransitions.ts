import { EXPORT_STATUSES, ExportStatus } from './ExportStatus';
import { IllegalTransitionError } from './errors';

const { QUEUED, REQUESTED, PROCESSING, COMPLETED, FAILED, ABORTING, ABORTED } = ExportStatus;

/**
 * Legal transitions, by current status. Everything not listed is illegal.
 *
 * | from \ to  | QUEUED | REQUESTED | PROCESSING | COMPLETED | FAILED | ABORTING | ABORTED |
 * |------------|--------|-----------|------------|-----------|--------|----------|---------|
 * | QUEUED     | update | yes       |            |           |        |          | yes     |
 * | REQUESTED  |        | update    | yes        |           | yes    | yes      | yes     |
 * | PROCESSING |        |           | update     | yes       | yes    | yes      | yes     |
 * | ABORTING   |        |           |            | yes       | yes    | update   | yes     |
 * | COMPLETED  |        |           |            |           |        |          |         |
 * | FAILED     |        |           |            |           |        |          |         |
 * | ABORTED    |        |           |            |           |        |          |         |
 *
 * - QUEUED → REQUESTED: its turn came and it took the spot; QUEUED → ABORTED: taken out of the
 *   queue, nothing was ever sent upstream.
 * - REQUESTED → FAILED: the upstream rejected the create.
 * - REQUESTED → ABORTED: aborted before the upstream create was sent, so there
 *   is nothing upstream to abort.
 * - REQUESTED → ABORTING: aborted while the create is in flight or its id is
 *   being recovered; the abort is sent upstream once the id is known.
 * - PROCESSING → ABORTED: the upstream reports an abort we never asked for
 *   (aborted out of band); the record must still reach a terminal state.
 * - ABORTING → COMPLETED | FAILED: the export finished upstream before our
 *   abort took effect; the first conditional write wins the race.
 * - "update" (same status → same status) changes no state: poll bookkeeping
 *   such as lastPolledAt or a new raw upstream status. Every active state needs
 *   it: a PROCESSING or ABORTING export is polled, and a REQUESTED one is
 *   visited by the reconciler while its create is unresolved.
 * - Terminal states (COMPLETED, FAILED, ABORTED) never change, not even for
 *   bookkeeping, and there is no way back to PROCESSING from ABORTING: once an
 *   abort is requested the export ends.
 */
const LEGAL_TARGETS: Readonly<Record<ExportStatus, readonly ExportStatus[]>> = {
  [QUEUED]: [QUEUED, REQUESTED, ABORTED],
  [REQUESTED]: [REQUESTED, PROCESSING, FAILED, ABORTING, ABORTED],
  [PROCESSING]: [PROCESSING, COMPLETED, FAILED, ABORTING, ABORTED],
  [ABORTING]: [ABORTING, COMPLETED, FAILED, ABORTED],
  [COMPLETED]: [],
  [FAILED]: [],
  [ABORTED]: [],
};

/** The one place that decides whether `from → to` is allowed. */
export function canTransition(from: ExportStatus, to: ExportStatus): boolean {
  return LEGAL_TARGETS[from].includes(to);
}

export function assertTransition(from: ExportStatus, to: ExportStatus, exportId: string): void {
  if (!canTransition(from, to)) {
    throw new IllegalTransitionError({ from, to, exportId });
  }
}

/** Every status from which `to` may be reached; a conditional write uses it as its guard. */
export function legalSourcesOf(to: ExportStatus): ExportStatus[] {
  return EXPORT_STATUSES.filter((from) => canTransition(from, to));
}
