import type { ExportChangeField, ExportChanges, ExportRecord } from './ExportRecord';
import type { ExportStatus } from './ExportStatus';
import type { ExportStore, TransitionRequest } from './ExportStore';
import { IllegalTransitionError, TransitionConflictError } from './errors';
import { assertTransition, canTransition, legalSourcesOf } from './exportTransitions';

/**
 * Moves an export to `to`, deciding here what the store only guards: the move must be legal
 * from every status the caller expects (omitted: from any status that may reach `to`), and a
 * write refused because the record moved on is an illegal transition when its current
 * status can no longer reach `to`, a conflict when it still can.
 * @throws ExportNotFoundError, IllegalTransitionError, TransitionConflictError
 */
export async function transitionExport(
  store: ExportStore,
  spotId: string,
  exportId: string,
  request: TransitionRequest,
): Promise<ExportRecord> {
  const from = expectedStatuses(request);
  for (const status of from) assertTransition(status, request.to, exportId);
  try {
    return await store.transition(spotId, exportId, { ...request, from });
  } catch (error) {
    if (error instanceof TransitionConflictError && !canTransition(error.current.status, request.to)) {
      const { current } = error;
      throw new IllegalTransitionError(
        { from: current.status, to: request.to, exportId, current },
        { cause: error.cause ?? error },
      );
    }
    throw error;
  }
}

function expectedStatuses(request: TransitionRequest): readonly ExportStatus[] {
  if (request.from === undefined) return legalSourcesOf(request.to);
  const from: readonly ExportStatus[] = typeof request.from === 'string' ? [request.from] : request.from;
  if (from.length === 0) throw new TypeError('transition: `from` must name at least one status');
  return from;
}

/**
 * Writes a status change; when another writer got there first, answers with what
 * they wrote instead of failing (the first conditional write wins, by design).
 */
export async function transitionOrCurrent(
  deps: { store: ExportStore },
  record: ExportRecord,
  to: ExportStatus,
  changes: ExportChanges,
  { guardVersion = true, remove }: { guardVersion?: boolean; remove?: readonly ExportChangeField[] } = {},
): Promise<{ record: ExportRecord; won: boolean }> {
  try {
    const next = await transitionExport(deps.store, record.spotId, record.exportId, {
      to,
      from: record.status,
      ...(guardVersion && { expectedVersion: record.version }),
      changes,
      ...(remove !== undefined && { remove }),
    });
    return { record: next, won: true };
  } catch (error) {
    if (error instanceof TransitionConflictError) return { record: error.current, won: false };
    if (error instanceof IllegalTransitionError && error.current)
      return { record: error.current, won: false };
    throw error;
  }
}
