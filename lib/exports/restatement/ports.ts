import type { CoverageDependencies } from '../coverage/ports';

/**
 * What restating touches: the start's ports (a restatement is an ordinary export of its window)
 * and the coverage ledger, whose windows keep their versions, their restatement and the spot's
 * daily budget of them. No upstream call: the workflow creates the export.
 */
export type RestatementDependencies = Pick<
  CoverageDependencies,
  | 'store'
  | 'coverage'
  | 'events'
  | 'spotLocks'
  | 'idempotencyKeys'
  | 'credentials'
  | 'workflows'
  | 'metrics'
  | 'settings'
  | 'now'
>;

/** What writing an export's outcome to its window touches (the archive function writes it too). */
export type RestatementOutcomeDependencies = Pick<
  CoverageDependencies,
  'coverage' | 'events' | 'metrics' | 'settings' | 'now'
>;
