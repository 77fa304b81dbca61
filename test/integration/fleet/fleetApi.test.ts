import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSpotsHandler } from '../../../functions/spots';
import {
  type CoverageWindow,
  type WindowSource,
  WindowState,
} from '../../../lib/exports/coverage/CoverageLedger';
import type { FleetPage, FleetReadDependencies, SpotStatus } from '../../../lib/exports/fleet/fleetStatus';
import { DEFAULT_EXPORT_SETTINGS } from '../../../lib/exports/record/ExportSettings';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { newExportId } from '../../../lib/exports/record/exportId';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { DynamoDbBackfillStore } from '../../../lib/store/DynamoDbBackfillStore';
import { DynamoDbCoverageLedger } from '../../../lib/store/DynamoDbCoverageLedger';
import { DynamoDbExportStore } from '../../../lib/store/DynamoDbExportStore';
import { DynamoDbFreshnessMarks } from '../../../lib/store/DynamoDbFreshnessMarks';
import { DynamoDbSpotLocks } from '../../../lib/store/DynamoDbSpotLocks';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { apiEvent, lambdaContext, parseResponse, silentLogger } from '../../support/apiGatewayEvents';
import { coverageWindowFixture } from '../../support/coverageWindowFixtures';
import { type DynaliteTable, startDynaliteTable } from '../../support/dynalite';
import { newExportRecordFixture } from '../../support/exportRecordFixtures';

const HOUR_MS = 3_600_000;
const HOUR_S = 3600;
const NOW_MS = Date.parse('2026-12-01T12:00:00Z');
/** An instant `hours` before now. */
const ago = (hours: number) => new Date(NOW_MS - hours * HOUR_MS).toISOString().replace('.000Z', 'Z');
const SCHEDULE: WindowSource = { kind: 'schedule', schedule: 'hourly' };
/** Every spot with a target of 3 hours but the never-planned one, which has none. */
const TARGETS = { sp_covered: 3 * HOUR_S, sp_gapped: 3 * HOUR_S, sp_queued: 3 * HOUR_S, sp_never: null };

/**
 * `GET /spots` through its handler over the real adapters on dynalite (records, ledger, locks,
 * backfills), each spot's items written by the adapters as the use cases write them.
 */
describe('the fleet API over the table in dynalite', () => {
  let table: DynaliteTable;
  let deps: FleetReadDependencies;

  beforeEach(async () => {
    table = await startDynaliteTable();
    const options = { client: table.documentClient, tableName: table.tableName };
    deps = {
      store: new DynamoDbExportStore(options),
      coverage: new DynamoDbCoverageLedger(options),
      spotLocks: new DynamoDbSpotLocks({ ...options, now: () => NOW_MS }),
      backfills: new DynamoDbBackfillStore(options),
      settings: { ...DEFAULT_EXPORT_SETTINGS, freshnessTargets: TARGETS },
      now: () => NOW_MS,
    };
  });

  afterEach(async () => {
    await table.close();
  });

  async function window(
    spotId: string,
    fromHoursAgo: number,
    untilHoursAgo: number,
    state: WindowState,
  ): Promise<CoverageWindow> {
    const planned = coverageWindowFixture({
      spotId,
      from: ago(fromHoursAgo),
      until: ago(untilHoursAgo),
      state: WindowState.IN_FLIGHT,
      source: SCHEDULE,
    });
    await deps.coverage.claimWindow(planned);
    if (state === WindowState.IN_FLIGHT) return planned;
    const changes: Partial<CoverageWindow> =
      state === WindowState.COVERED
        ? { state, rows: 10, coveredAt: ago(untilHoursAgo) }
        : { state, reason: 'the upstream refused the request: range not allowed' };
    const updated = await deps.coverage.updateWindow(spotId, planned.from, planned.until, {
      expectedExportId: planned.exportId,
      changes,
    });
    return updated as CoverageWindow;
  }

  function handlerFor(options: { spotClaim?: string; spotsByPrincipal?: Record<string, string[]> } = {}) {
    return makeSpotsHandler(
      handlerRuntimeFor(
        { ...deps, metrics: new InMemoryExportMetrics() },
        { logger: silentLogger(), ...options },
      ),
    );
  }

  async function fleet(
    query: Record<string, string> = {},
    event = apiEvent({ route: '/spots', query }),
    handler = handlerFor(),
  ) {
    const response = parseResponse(await handler(event, lambdaContext()));
    return { status: response.statusCode, body: response.body as unknown as FleetPage };
  }

  async function prepareFleet(): Promise<void> {
    // Covered up to 1 h ago by its schedule: fresh.
    await window('sp_covered', 10, 1, WindowState.COVERED);
    await deps.coverage.advanceWatermark('sp_covered', 'hourly', ago(1), ago(1));
    // A gap 6 h ago holds it back, however much is covered after: stale, with the gap's reason.
    await window('sp_gapped', 10, 6, WindowState.COVERED);
    await window('sp_gapped', 6, 5, WindowState.GAP);
    await window('sp_gapped', 5, 1, WindowState.COVERED);
    await deps.coverage.advanceWatermark('sp_gapped', 'hourly', ago(1), ago(1));
    // Covered to 2 h ago, its next window in flight (its export running), two more queued behind it.
    await window('sp_queued', 10, 2, WindowState.COVERED);
    const inFlight = await window('sp_queued', 2, 1, WindowState.IN_FLIGHT);
    await deps.store.createExport(
      newExportRecordFixture({ spotId: 'sp_queued', exportId: inFlight.exportId, requestedAt: ago(0.5) }),
    );
    await deps.spotLocks.acquire('sp_queued', inFlight.exportId);
    for (const minutes of [20, 10]) {
      const requestedAt = new Date(NOW_MS - minutes * 60_000).toISOString();
      await deps.store.createExport(
        newExportRecordFixture({
          spotId: 'sp_queued',
          exportId: newExportId(Date.parse(requestedAt)),
          status: ExportStatus.QUEUED,
          requestedAt,
          queue: { priority: 1, enqueuedAt: requestedAt },
        }),
      );
    }
    await deps.store.createExport(
      newExportRecordFixture({
        spotId: 'sp_queued',
        status: ExportStatus.FAILED,
        requestedAt: ago(30),
        completedAt: ago(29),
        failureReason: 'UpstreamRejectedError: range not allowed',
      }),
    );
    // sp_never: configured, nothing ever planned.
  }

  const expected: [string, Partial<SpotStatus>][] = [
    [
      'sp_covered',
      {
        coveredUntil: ago(1),
        hoursBehind: 1,
        freshnessTargetHours: 3,
        stale: false,
        queued: 0,
        gaps: { count: 0, hours: 0 },
      },
    ],
    [
      'sp_gapped',
      {
        coveredUntil: ago(6),
        hoursBehind: 6,
        stale: true,
        gaps: {
          count: 1,
          hours: 1,
          newestReason: 'the upstream refused the request: range not allowed',
          newestFrom: ago(6),
        },
      },
    ],
    ['sp_queued', { coveredUntil: ago(2), hoursBehind: 2, stale: false, queued: 2 }],
    [
      'sp_never',
      {
        coveredUntil: null,
        hoursBehind: null,
        freshnessTargetHours: null,
        stale: false,
        queued: 0,
        backfills: [],
      },
    ],
  ];

  it.each(expected)('answers %s as the ledger and the queue say', async (spotId, fields) => {
    // Prepare
    await prepareFleet();

    // Act
    const { status, body } = await fleet();

    // Assess
    expect(status).toBe(200);
    expect(body.items.map((spot) => spot.spotId)).toEqual([
      'sp_covered',
      'sp_gapped',
      'sp_never',
      'sp_queued',
    ]);
    expect(body.items.find((spot) => spot.spotId === spotId)).toMatchObject({ ...fields, configured: true });
  });

  it('shows the running export with its age, and the last failure with its reason', async () => {
    // Prepare
    await prepareFleet();

    // Act
    const { body } = await fleet({ spotId: 'sp_queued' });

    // Assess
    expect(body.items).toHaveLength(1);
    expect(body.items[0]?.running).toMatchObject({ status: ExportStatus.REQUESTED, ageSeconds: 0 });
    expect(body.items[0]?.lastFailure).toEqual({
      exportId: expect.stringMatching(/^ex_/),
      at: ago(29),
      reason: 'UpstreamRejectedError: range not allowed',
    });
  });

  it('pages through the spots in order, the pages adding up to the fleet', async () => {
    // Prepare
    await prepareFleet();

    // Act
    const first = await fleet({ limit: '3' });
    const second = await fleet({ limit: '3', nextToken: first.body.nextToken as string });

    // Assess
    expect(first.body.items.map((spot) => spot.spotId)).toEqual(['sp_covered', 'sp_gapped', 'sp_never']);
    expect(second.body.items.map((spot) => spot.spotId)).toEqual(['sp_queued']);
    expect(second.body.nextToken).toBeUndefined();
  });

  it('says an unknown spot is unknown, naming the nearest known one', async () => {
    // Act
    const { status, body } = await fleet({ spotId: 'sp_coverd' });

    // Assess
    expect(status).toBe(404);
    expect(body).toMatchObject({
      type: '/problems/spot-not-found',
      detail: 'Spot sp_coverd is unknown (did you mean sp_covered?)',
      suggestion: 'sp_covered',
    });
  });

  it('answers a JWT caller with the spots its claim lists only, and a caller with no spot with none', async () => {
    // Prepare
    await prepareFleet();
    const handler = handlerFor({ spotClaim: 'spots' });
    const withClaims = (claims: Record<string, unknown>) => {
      const event = apiEvent({ route: '/spots' });
      return {
        ...event,
        requestContext: { ...event.requestContext, authorizer: { jwt: { claims, scopes: [] } } },
      };
    };

    // Act
    const mine = await fleet({}, withClaims({ spots: '[sp_queued sp_never]' }) as never, handler);
    const none = await fleet({}, withClaims({ sub: 'someone' }) as never, handler);
    const other = await fleet({}, withClaims({ spots: 'sp_never', spotId: 'x' }) as never, handler);

    // Assess
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((spot) => spot.spotId)).toEqual(['sp_never', 'sp_queued']);
    expect(none.body.items).toEqual([]);
    expect(other.body.items.map((spot) => spot.spotId)).toEqual(['sp_never']);
  });

  it("answers an IAM caller with its role's spots only, and hides another spot as unknown", async () => {
    // Prepare
    await prepareFleet();
    const role = 'arn:aws:iam::123456789012:role/publisher-a';
    const handler = handlerFor({ spotsByPrincipal: { [role]: ['sp_covered'] } });
    const event = apiEvent({ route: '/spots' });
    const signed = {
      ...event,
      requestContext: {
        ...event.requestContext,
        authorizer: {
          iam: {
            accessKey: 'AKIA',
            accountId: '123456789012',
            callerId: 'AROA:session',
            principalOrgId: null,
            userArn: 'arn:aws:sts::123456789012:assumed-role/publisher-a/session',
            userId: 'AROA:session',
          },
        },
      },
    };
    const askingOther = { ...signed, queryStringParameters: { spotId: 'sp_gapped' } };

    // Act
    const mine = await fleet({}, signed as never, handler);
    const other = await fleet({}, askingOther as never, handler);

    // Assess
    expect(mine.body.items.map((spot) => spot.spotId)).toEqual(['sp_covered']);
    expect(other.status).toBe(404);
  });

  it('lists a spot that is not configured while it has an export queued', async () => {
    // Prepare
    const requestedAt = ago(0.1);
    await deps.store.createExport(
      newExportRecordFixture({
        spotId: 'sp_api_only',
        exportId: newExportId(Date.parse(requestedAt)),
        status: ExportStatus.QUEUED,
        requestedAt,
        queue: { priority: 1, enqueuedAt: requestedAt },
      }),
    );

    // Act
    const { body } = await fleet({ spotId: 'sp_api_only' });

    // Assess
    expect(body.items[0]).toMatchObject({
      spotId: 'sp_api_only',
      configured: false,
      queued: 1,
      stale: false,
    });
  });

  it('calls a configured spot whose schedule never fired stale, as the freshness watch does, once its target passed since it was first measured', async () => {
    // Prepare: the watch first measured sp_silent 4 h ago (target 3 h); sp_new 1 h ago
    const freshnessMarks = new DynamoDbFreshnessMarks({
      client: table.documentClient,
      tableName: table.tableName,
    });
    deps = {
      ...deps,
      freshnessMarks,
      settings: { ...deps.settings, freshnessTargets: { sp_silent: 3 * HOUR_S, sp_new: 3 * HOUR_S } },
    };
    await freshnessMarks.change(
      { spotId: 'sp_silent', stale: false, since: ago(4), watchedSince: ago(4) },
      undefined,
    );
    await freshnessMarks.change(
      { spotId: 'sp_new', stale: false, since: ago(1), watchedSince: ago(1) },
      undefined,
    );

    // Act
    const { body } = await fleet();

    // Assess
    const bySpot = Object.fromEntries(body.items.map((spot) => [spot.spotId, spot]));
    expect(bySpot.sp_silent).toMatchObject({ coveredUntil: null, hoursBehind: 4, stale: true });
    expect(bySpot.sp_new).toMatchObject({ coveredUntil: null, hoursBehind: 1, stale: false });
  });

  it('lists a spot used over the API only while it is idle, its last export long finished', async () => {
    // Prepare: one export of an unconfigured spot, completed hours ago
    const requestedAt = ago(5);
    await deps.store.createExport(
      newExportRecordFixture({
        spotId: 'sp_idle_api',
        exportId: newExportId(Date.parse(requestedAt)),
        status: ExportStatus.COMPLETED,
        requestedAt,
      }),
    );

    // Act
    const { body } = await fleet();

    // Assess
    expect(body.items.find((spot) => spot.spotId === 'sp_idle_api')).toMatchObject({
      configured: false,
      queued: 0,
      stale: false,
    });
  });
});
