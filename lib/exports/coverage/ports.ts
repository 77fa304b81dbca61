import type { QueueDependencies } from '../queue/ports';
import type { ExportRecord } from '../record/ExportRecord';
import type { CoverageLedger, CoverageWindow } from './CoverageLedger';

/** Where terminal exports are announced (EventBridge), so users react without polling. */
export interface ExportEvents {
  publishTerminal(record: ExportRecord): Promise<void>;
  /** A window of a spot became a gap: it will not be exported again unless someone fills it. */
  publishCoverageGap(window: CoverageWindow): Promise<void>;
  /** A spot fell behind its freshness target (`Coverage Stale`), or caught up again (`Coverage Fresh`). */
  publishCoverageFreshness?(change: CoverageFreshnessChange): Promise<void>;
}

/** A spot's freshness changed: announced once per episode. */
export interface CoverageFreshnessChange {
  spotId: string;
  stale: boolean;
  /** Every hour the spot's schedules planned before this is covered; null when nothing is. */
  coveredUntil: string | null;
  hoursBehind: number | null;
  freshnessTargetHours: number | null;
  /** When it was found. */
  at: string;
}

/** What scheduled runs and the coverage ledger touch. */
export interface CoverageDependencies extends QueueDependencies {
  coverage: CoverageLedger;
  events: ExportEvents;
}
