import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import type { FleetDependencies } from '../../../lib/exports/fleet/ports';
import { trackFreshness } from '../../../lib/exports/fleet/trackFreshness';
import { DEFAULT_EXPORT_SETTINGS } from '../../../lib/exports/record/ExportSettings';
import { DynamoDbCoverageLedger } from '../../../lib/store/DynamoDbCoverageLedger';
import { DynamoDbFreshnessMarks } from '../../../lib/store/DynamoDbFreshnessMarks';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { LocalExportEvents } from '../../../local/LocalExportEvents';
import { coverageWindowFixture } from '../../support/coverageWindowFixtures';
import { type DynaliteTable, startDynaliteTable } from '../../support/dynalite';

const HOUR_MS = 3_600_000;
const START_MS = Date.parse('2026-12-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** An hourly schedule with no lag: its target is twice its period, 2 hours. */
const TARGET_SECONDS = 2 * 3600;

/**
 * The reconciler's freshness watch over the ledger and the marks in dynalite: an hourly schedule
 * covers its hours, stops firing, and resumes; the events are those the bus would carry.
 */
describe('freshness over the ledger in dynalite', () => {
  let table: DynaliteTable;
  let ledger: DynamoDbCoverageLedger;
  let events: LocalExportEvents;
  let metrics: InMemoryExportMetrics;
  let nowMs: number;
  let deps: FleetDependencies;

  beforeEach(async () => {
    table = await startDynaliteTable();
    const options = { client: table.documentClient, tableName: table.tableName };
    ledger = new DynamoDbCoverageLedger(options);
    events = new LocalExportEvents();
    metrics = new InMemoryExportMetrics();
    nowMs = START_MS;
    deps = {
      coverage: ledger,
      freshnessMarks: new DynamoDbFreshnessMarks(options),
      events,
      metrics,
      settings: {
        ...DEFAULT_EXPORT_SETTINGS,
        freshnessTargets: { sp_hourly: TARGET_SECONDS, sp_adhoc: null },
      },
      now: () => nowMs,
    } as unknown as FleetDependencies;
  });

  afterEach(async () => {
    await table.close();
  });

  /** The schedule's run at `atMs`: the hour before it, exported and archived, and the watermark moved. */
  async function scheduledRun(atMs: number): Promise<void> {
    await ledger.claimWindow(
      coverageWindowFixture({
        spotId: 'sp_hourly',
        from: iso(atMs - HOUR_MS),
        until: iso(atMs),
        state: WindowState.COVERED,
        source: { kind: 'schedule', schedule: 'hourly' },
      }),
    );
    await ledger.advanceWatermark('sp_hourly', 'hourly', iso(atMs), iso(atMs));
  }

  const freshnessEvents = () =>
    events.events
      .filter((event) => event.detailType === 'Coverage Stale' || event.detailType === 'Coverage Fresh')
      .map((event) => [event.detailType, (event.detail as { spotId: string }).spotId]);

  it('calls a spot stale once its schedule stopped firing for longer than its target, once per episode, and fresh when it resumes', async () => {
    // Prepare: six hourly runs, then the schedule stops firing
    for (let hour = 1; hour <= 6; hour += 1) await scheduledRun(START_MS + hour * HOUR_MS);
    const lastRunMs = START_MS + 6 * HOUR_MS;

    // Act: the reconciler every 30 minutes, for four hours of silence
    const sweeps = [];
    for (let minutes = 30; minutes <= 240; minutes += 30) {
      nowMs = lastRunMs + minutes * 60_000;
      sweeps.push(await trackFreshness(deps));
    }

    // Assess: fresh within the target (2 h), stale after it, announced once
    expect(sweeps.map((sweep) => sweep.stale.length)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(freshnessEvents()).toEqual([['Coverage Stale', 'sp_hourly']]);
    expect(events.events.at(-1)?.detail).toMatchObject({
      spotId: 'sp_hourly',
      stale: true,
      coveredUntil: iso(lastRunMs),
      hoursBehind: 2.5,
      freshnessTargetHours: 2,
    });
    expect(metrics.levels.get('HoursBehind SpotId=sp_hourly')).toBe(4);

    // Act: the schedule fires again and folds the missed hours into its run
    const resumedMs = lastRunMs + 5 * HOUR_MS;
    await ledger.claimWindow(
      coverageWindowFixture({
        spotId: 'sp_hourly',
        from: iso(lastRunMs),
        until: iso(resumedMs),
        state: WindowState.COVERED,
        source: { kind: 'schedule', schedule: 'hourly' },
      }),
    );
    await ledger.advanceWatermark('sp_hourly', 'hourly', iso(resumedMs), iso(resumedMs));
    nowMs = resumedMs + 10 * 60_000;
    const afterResume = await trackFreshness(deps);
    await trackFreshness(deps);

    // Assess
    expect(afterResume.becameFresh).toEqual(['sp_hourly']);
    expect(freshnessEvents()).toEqual([
      ['Coverage Stale', 'sp_hourly'],
      ['Coverage Fresh', 'sp_hourly'],
    ]);
  });

  it('never calls a spot without a schedule or a target stale, nor measures it', async () => {
    // Prepare: days pass with nothing planned
    nowMs = START_MS + 72 * HOUR_MS;

    // Act
    const sweep = await trackFreshness(deps);

    // Assess: only the scheduled spot is measured (and, having never run, is not stale either)
    expect(sweep.spots).toBe(1);
    expect(sweep.stale).toEqual([]);
    expect(freshnessEvents()).toEqual([]);
    expect(metrics.pending.get('StaleSpots')).toBe(0);
  });

  it('announces a spot once when two reconcilers find it stale at the same time', async () => {
    // Prepare
    await scheduledRun(START_MS + HOUR_MS);
    nowMs = START_MS + 10 * HOUR_MS;

    // Act
    const [first, second] = await Promise.all([trackFreshness(deps), trackFreshness(deps)]);

    // Assess
    expect([...first.becameStale, ...second.becameStale]).toEqual(['sp_hourly']);
    expect(freshnessEvents()).toEqual([['Coverage Stale', 'sp_hourly']]);
  });

  it('puts the mark back when the event cannot be published, and announces the episode on the next sweep', async () => {
    // Prepare: a stale spot, and a bus that refuses the first event
    await scheduledRun(START_MS + HOUR_MS);
    nowMs = START_MS + 10 * HOUR_MS;
    const publish = events.publishCoverageFreshness.bind(events);
    let refusals = 1;
    events.publishCoverageFreshness = async (detail) => {
      if (refusals-- > 0) throw new Error('PutEvents refused the entry');
      return publish(detail);
    };

    // Act
    const refused = await trackFreshness(deps);
    const retried = await trackFreshness(deps);

    // Assess
    expect(refused.unannounced).toEqual(['sp_hourly']);
    expect(refused.becameStale).toEqual([]);
    expect(retried.becameStale).toEqual(['sp_hourly']);
    expect(freshnessEvents()).toEqual([['Coverage Stale', 'sp_hourly']]);
    expect(metrics.pending.get('FreshnessEventsUnannounced')).toBe(1);
  });

  it('calls a scheduled spot whose schedule never fired stale once its target has passed since the watch first measured it', async () => {
    // Prepare: the spot is configured with an hourly schedule that never fires
    const firstSweep = await trackFreshness(deps);

    // Act: within the target, then past it
    nowMs = START_MS + TARGET_SECONDS * 1000 - 60_000;
    const withinTarget = await trackFreshness(deps);
    nowMs = START_MS + TARGET_SECONDS * 1000 + 60_000;
    const pastTarget = await trackFreshness(deps);

    // Assess
    expect(firstSweep.stale).toEqual([]);
    expect(withinTarget.stale).toEqual([]);
    expect(pastTarget.becameStale).toEqual(['sp_hourly']);
    expect(events.events.at(-1)?.detail).toMatchObject({
      spotId: 'sp_hourly',
      stale: true,
      coveredUntil: null,
      hoursBehind: 2.017,
    });
  });

  it('measures a fresh spot again only once it could have fallen behind, and a stale one at every run', async () => {
    // Prepare: covered up to the last run, whose end is the spot's coveredUntil
    await scheduledRun(START_MS + HOUR_MS);
    nowMs = START_MS + HOUR_MS + 60_000;
    const first = await trackFreshness(deps);

    // Act: runs every 5 minutes until past coveredUntil + the target (2 h), without a new run
    const measured: number[] = [];
    for (let minutes = 5; minutes <= 150; minutes += 5) {
      nowMs = START_MS + HOUR_MS + minutes * 60_000;
      measured.push((await trackFreshness(deps)).spots);
    }

    // Assess: measured when first seen, then not until 2 h after coveredUntil, then at every run while stale
    expect(first.spots).toBe(1);
    const minutesMeasured = measured.flatMap((count, index) => (count > 0 ? [5 * (index + 1)] : []));
    expect(minutesMeasured).toEqual([120, 125, 130, 135, 140, 145, 150]);
    expect(freshnessEvents()).toEqual([['Coverage Stale', 'sp_hourly']]);
  });

  it('takes a spot that is no longer watched out of the measurements', async () => {
    // Prepare: measured once, then dropped from the targets
    await scheduledRun(START_MS + HOUR_MS);
    nowMs = START_MS + HOUR_MS;
    await trackFreshness(deps);
    deps = { ...deps, settings: { ...deps.settings, freshnessTargets: {} } };

    // Act
    nowMs = START_MS + 10 * HOUR_MS;
    const sweeps = [await trackFreshness(deps), await trackFreshness(deps)];

    // Assess
    expect(sweeps.map((sweep) => sweep.spots)).toEqual([0, 0]);
    expect(await deps.freshnessMarks.due(new Date(nowMs).toISOString(), 10)).toEqual([]);
    expect(freshnessEvents()).toEqual([]);
  });
});
