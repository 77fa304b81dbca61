import type { LifecycleDependencies } from '../lifecycle/ports';
import type { BackfillStore } from './BackfillStore';

/** What backfills touch: everything an export's life does, and the backfills' plans. */
export interface BackfillDependencies extends LifecycleDependencies {
  /** The backfills' plans; where their windows stand is the ledger's. */
  backfills: BackfillStore;
}
