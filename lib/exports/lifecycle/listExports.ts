import type { ExportStatus } from '../record/ExportStatus';
import type { ExportPage } from '../record/ExportStore';
import type { LifecycleDependencies } from './ports';

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;

export interface ListExportsQuery {
  spotId: string;
  limit?: number;
  nextToken?: string;
  status?: ExportStatus;
}

/** A spot's exports, newest first. @throws InvalidPaginationTokenError */
export function listExports(
  deps: Pick<LifecycleDependencies, 'store'>,
  query: ListExportsQuery,
): Promise<ExportPage> {
  return deps.store.listExports(query.spotId, {
    limit: Math.min(query.limit ?? DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT),
    ...(query.nextToken !== undefined && { nextToken: query.nextToken }),
    ...(query.status !== undefined && { status: query.status }),
  });
}
