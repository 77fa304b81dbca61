import type { QueueDependencies } from '../queue/ports';
import type { ExportRecord } from '../record/ExportRecord';
import type { CoverageLedger, CoverageWindow } from './CoverageLedger';

/** Where terminal exports are announced (EventBridge), so users react without polling. */
export interface ExportEvents {
  publishTerminal(record: ExportRecord): Promise<void>;
  /** A window of a spot became a gap: it will not be exported again unless someone fills it. */
  publishCoverageGap(window: CoverageWindow): Promise<void>;
}

/** What scheduled runs and the coverage ledger touch. */
export interface CoverageDependencies extends QueueDependencies {
  coverage: CoverageLedger;
  events: ExportEvents;
}
