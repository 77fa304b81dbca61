// One spot on an hourly schedule against the ledger, the queue, the upstream simulator over
// loopback HTTP, dynalite and the S3 stand-in, on a clock moved by hand; each export's workflow
// tasks are run in the order the state machine runs them (create, poll, archive).
import { type ArchiveDependencies, archiveExport } from '../../lib/archive/archiveExport';
import type { CoverageWindow } from '../../lib/exports/coverage/CoverageLedger';
import { type ScheduleRunCommand, windowsBetween } from '../../lib/exports/coverage/runSchedule';
import { pollExportForWorkflow } from '../../lib/exports/lifecycle/pollExportForWorkflow';
import type { ExportSettings } from '../../lib/exports/record/ExportSettings';
import { ExportStatus } from '../../lib/exports/record/ExportStatus';
import { type LocalS3, startLocalS3 } from '../../local/localS3';
import type { OpenWebSimulatorOptions } from '../../local/openweb-simulator/index';
import { archiveDependenciesOn, testArchiveSettings } from './archiveHarness';
import { type ExportHarness, startExportHarness } from './exportHarness';
import { FAR_DEADLINE, runCreateTask } from './startAndCreate';

export const SCHEDULED_SPOT = 'sp_demo';
export const HOURLY_SCHEDULE = 'hourly';
const HOUR_MS = 3_600_000;
/** Long enough for any export of these tests to finish upstream. */
export const UPSTREAM_RUN_MS = 2 * HOUR_MS;
const FAR_FUTURE_MS = Date.parse('2100-01-01T00:00:00Z');

export interface ScheduledSpotOptions {
  settings: Partial<ExportSettings>;
  simulator?: OpenWebSimulatorOptions;
  /** The schedule's restatement ages, on every run. */
  restate?: string[];
}

export interface ScheduledSpot {
  readonly h: ExportHarness;
  readonly s3: LocalS3;
  /** The archive step's dependencies: raw files only (no table). */
  archiveDeps(): ArchiveDependencies;
  /** The schedule's run fired at `scheduledTimeMs`: hourly windows, no lag. */
  runAt(scheduledTimeMs: number, overrides?: Partial<ScheduleRunCommand>): ScheduleRunCommand;
  /** The workflow of a started export, as the state machine runs it: create, polls until the end, archive. */
  runWorkflow(exportId: string): Promise<void>;
  /** Every window the ledger holds for the spot. */
  allWindows(): Promise<CoverageWindow[]>;
  close(): Promise<void>;
}

export async function startScheduledSpot(options: ScheduledSpotOptions): Promise<ScheduledSpot> {
  const h = await startExportHarness({ settings: options.settings, simulator: options.simulator ?? {} });
  const s3 = await startLocalS3();
  const archiveDeps = (): ArchiveDependencies =>
    archiveDependenciesOn(h, s3, {
      archiveSettings: testArchiveSettings(h.simulator.exportBaseUrl, { writeTable: false }),
    });
  return {
    h,
    s3,
    archiveDeps,
    runAt: (scheduledTimeMs, overrides = {}) => ({
      spotId: SCHEDULED_SPOT,
      schedule: HOURLY_SCHEDULE,
      scheduledTimeMs,
      firstWindowSeconds: 3600,
      lagSeconds: 0,
      maxWindowHours: 730,
      ...(options.restate !== undefined && { restate: options.restate }),
      ...overrides,
    }),
    runWorkflow: async (exportId) => {
      await runCreateTask(h.deps, SCHEDULED_SPOT, exportId);
      h.clock.advance(UPSTREAM_RUN_MS);
      const polled = await pollExportForWorkflow(h.deps, {
        action: 'poll',
        spotId: SCHEDULED_SPOT,
        exportId,
        deadline: FAR_DEADLINE,
      });
      if (polled.status === ExportStatus.COMPLETED)
        await archiveExport(archiveDeps(), { spotId: SCHEDULED_SPOT, exportId });
    },
    allWindows: () => windowsBetween(h.coverage, SCHEDULED_SPOT, 0, FAR_FUTURE_MS),
    close: async () => {
      await h.close();
      await s3.close();
    },
  };
}
