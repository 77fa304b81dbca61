import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import { startExport } from '../../../lib/exports/queue/startExport';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import type { OpenWebClient } from '../../../lib/openweb/OpenWebClient';
import { exportKey } from '../../../lib/store/tableKeys';
import { deliverSchedule, startViaApi } from './callers';
import { checkInvariants } from './checkInvariants';
import { driveToEnd, reconcileNow } from './driveToEnd';
import { FaultScenario } from './FaultScenario';

const SPOT = 'sp_demo';
const KEY = 'planted';
const SHORT_TOKEN_TTL_SECONDS = 10;

describe('checkInvariants', () => {
  let scenario: FaultScenario;

  afterEach(async () => {
    await scenario.close();
  });

  async function startedExportId(): Promise<string> {
    const { exportId } = await startViaApi(scenario, SPOT, 0, { key: KEY });
    return exportId as string;
  }

  it('finds nothing once an export was driven to its end', async () => {
    // Prepare
    scenario = await FaultScenario.start({ seed: 1 });
    await startedExportId();

    // Act
    await driveToEnd(scenario);
    const violations = await checkInvariants(scenario);

    // Assess
    expect(violations).toEqual([]);
  });

  it('reports an upstream export that no record owns', async () => {
    // Prepare: created upstream behind the system's back.
    scenario = await FaultScenario.start({ seed: 1 });
    const created = await scenario.main.deps.upstream.createExport(SPOT, { conversationId: `${SPOT}_post` });

    // Act
    const violations = await checkInvariants(scenario, { requireSettled: false });

    // Assess
    expect(violations).toContain(`orphan: upstream export ${created.exportId} (${SPOT}) has no record`);
  });

  it('reports an export still active after the drive, and a lock its finished export kept', async () => {
    // Prepare
    scenario = await FaultScenario.start({ seed: 1 });
    const exportId = await startedExportId();
    const lockedAgain = async () => {
      await scenario.harness.spotLocks.acquire(SPOT, exportId);
    };

    // Act
    const whileActive = await checkInvariants(scenario);
    await driveToEnd(scenario);
    await lockedAgain();
    const afterTheEnd = await checkInvariants(scenario);

    // Assess
    expect(whileActive).toContain(`unsettled: ${exportId} still REQUESTED after the scenario drove it`);
    expect(
      afterTheEnd.some((violation) => violation.startsWith(`lock: ${SPOT} still locked by ${exportId}`)),
    ).toBe(true);
  });

  it('reports a terminal record changed behind the audit', async () => {
    // Prepare
    scenario = await FaultScenario.start({ seed: 1 });
    const exportId = await startedExportId();
    await driveToEnd(scenario);

    // Act
    await scenario.harness.table.documentClient.send(
      new UpdateCommand({
        TableName: scenario.harness.table.tableName,
        Key: exportKey(SPOT, exportId),
        UpdateExpression: 'SET #links = :links',
        ExpressionAttributeNames: { '#links': 'links' },
        ExpressionAttributeValues: { ':links': [] },
      }),
    );
    const violations = await checkInvariants(scenario);

    // Assess
    expect(violations.some((violation) => violation.startsWith(`changed: terminal ${exportId}`))).toBe(true);
    expect(
      violations.some((violation) =>
        violation.startsWith(`disagrees: ${exportId} is ${ExportStatus.COMPLETED}`),
      ),
    ).toBe(true);
  });

  it('reports a second token fetched while the first was still good', async () => {
    // Prepare
    scenario = await FaultScenario.start({
      seed: 1,
      simulator: { tokenTtlSeconds: SHORT_TOKEN_TTL_SECONDS },
    });
    const client = scenario.main.deps.upstream as OpenWebClient;

    // Act
    await client.authenticate(SPOT);
    await client.authenticate(SPOT);
    const violations = await checkInvariants(scenario, { tokenTtlSeconds: SHORT_TOKEN_TTL_SECONDS });

    // Assess
    expect(violations).toEqual([
      `auth: 2 tokens received for ${SPOT}, 1 of them while the previous ${SHORT_TOKEN_TTL_SECONDS} s token was still good (0 expiries forced)`,
    ]);
  });

  it('reports a queued export left waiting on a free spot', async () => {
    // Prepare: a queued export whose start was never made once its spot freed.
    scenario = await FaultScenario.start({ seed: 1 });
    const { record } = await startExport(scenario.main.deps, {
      spotId: SPOT,
      source: 'api',
      whenBusy: 'queue',
      request: { kind: 'dateRange', from: '2026-10-01T00:00:00Z', until: '2026-10-02T00:00:00Z' },
    });
    await scenario.harness.table.documentClient.send(
      new UpdateCommand({
        TableName: scenario.harness.table.tableName,
        Key: exportKey(SPOT, record.exportId),
        UpdateExpression: 'SET #status = :queued',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':queued': ExportStatus.QUEUED },
      }),
    );
    await scenario.harness.spotLocks.release(SPOT, record.exportId);

    // Act
    const violations = await checkInvariants(scenario, { requireSettled: false });

    // Assess
    expect(violations).toContain(`stalled: ${record.exportId} is QUEUED while ${SPOT} is free`);
  });

  it('reports a scheduled window gone from the ledger, the hole it leaves and a gap without its reason', async () => {
    // Prepare: three daily runs, each driven to its end; then the ledger is damaged.
    scenario = await FaultScenario.start({ seed: 1 });
    for (const window of [0, 1, 2]) {
      await deliverSchedule(scenario, SPOT, window);
      await driveToEnd(scenario);
    }
    const clean = await checkInvariants(scenario);
    const page = await scenario.harness.coverage.listWindows(SPOT, {
      from: '2000-01-01T00:00:00Z',
      until: '2100-01-01T00:00:00Z',
      limit: 10,
    });
    const [, middle, last] = page.windows;

    // Act
    await scenario.harness.coverage.deleteWindow(
      SPOT,
      middle?.from as string,
      middle?.until as string,
      middle?.exportId as string,
    );
    await scenario.harness.coverage.updateWindow(SPOT, last?.from as string, last?.until as string, {
      changes: { state: WindowState.GAP, reason: '' },
    });
    const violations = await checkInvariants(scenario);

    // Assess
    expect(clean).toEqual([]);
    expect(page.windows).toHaveLength(3);
    expect(violations).toContain(`window: scheduled ${middle?.exportId} belongs to no window of the ledger`);
    expect(violations).toContain(
      `gap: window ${SPOT}/${last?.from}..${last?.until} is a gap without a reason`,
    );
    expect(violations.some((violation) => violation.startsWith(`hole: schedule daily of ${SPOT}`))).toBe(
      true,
    );
  });

  it('reports a restated window that lost its coverage, and a window restated twice for one age', async () => {
    // Prepare: a window restated at P7D, driven to its end (no archive step: COMPLETED covers it)
    scenario = await FaultScenario.start({ seed: 1, settings: { archiving: false } });
    await deliverSchedule(scenario, SPOT, 11, undefined, false, ['P7D']);
    await driveToEnd(scenario);
    scenario.clock.advance(Date.parse('2026-11-08T00:00:00Z') - scenario.clock.now());
    await reconcileNow(scenario);
    await driveToEnd(scenario);
    const clean = await checkInvariants(scenario);
    const [window] = (
      await scenario.harness.coverage.listWindows(SPOT, {
        from: '2000-01-01T00:00:00Z',
        until: '2100-01-01T00:00:00Z',
        limit: 10,
      })
    ).windows;
    const name = `window ${SPOT}/${window?.from}..${window?.until}`;

    // Act: a second P7D restatement under way, and the window uncovered
    await startExport(scenario.main.deps, {
      spotId: SPOT,
      request: { kind: 'dateRange', from: window?.from as string, until: window?.until as string },
      source: 'schedule',
      whenBusy: 'queue',
      origin: { schedule: 'daily', restatement: { age: 'P7D' } },
    });
    await scenario.harness.coverage.updateWindow(SPOT, window?.from as string, window?.until as string, {
      changes: { state: WindowState.RETRYING },
    });
    const violations = await checkInvariants(scenario, { requireSettled: false });

    // Assess
    expect(clean).toEqual([]);
    expect(window?.versions?.map((version) => version.age)).toEqual([undefined, 'P7D']);
    expect(violations).toContain(`uncovered: ${name} has archived versions but is RETRYING`);
    expect(violations).toContain(`restated twice: ${name} has 2 restatements at P7D`);
  });
});
