import { describe, expect, it } from 'vitest';
import { ExportEventPublishError } from '../../../../../lib/events/errors';
import { onTerminal } from '../../../../../lib/exports/lifecycle/terminalTransitions';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const DAY = { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' } as const;
const NEXT_DAY = { kind: 'dateRange', from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' } as const;

describe('onTerminal', () => {
  it('frees the spot, announces and counts the end, and hands the spot to the export queued next', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const running = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const queued = await startExport(lifecycle.deps, {
      spotId: SPOT,
      request: NEXT_DAY,
      source: 'api',
      whenBusy: 'queue',
    });
    const failed = await lifecycle.store.transition(SPOT, running.record.exportId, {
      from: [ExportStatus.REQUESTED],
      to: ExportStatus.FAILED,
      changes: { failureReason: 'the upstream reported failed' },
    });

    // Act
    await onTerminal(lifecycle.deps, failed);

    // Assess
    expect(lifecycle.published.map((record) => record.exportId)).toEqual([running.record.exportId]);
    expect(lifecycle.metrics).toContain('ExportsFailed');
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(queued.record.exportId);
    expect((await lifecycle.store.getExport(SPOT, queued.record.exportId))?.status).toBe(
      ExportStatus.REQUESTED,
    );
  });

  it('counts each ending by its kind', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const records = await Promise.all(
      ['sp_a', 'sp_b'].map(
        async (spotId) => (await startExport(lifecycle.deps, { spotId, request: DAY, source: 'api' })).record,
      ),
    );
    const [completed, aborted] = await Promise.all([
      lifecycle.store.transition('sp_a', records[0]?.exportId as string, {
        from: [ExportStatus.REQUESTED],
        to: ExportStatus.COMPLETED,
      }),
      lifecycle.store.transition('sp_b', records[1]?.exportId as string, {
        from: [ExportStatus.REQUESTED],
        to: ExportStatus.ABORTED,
      }),
    ]);

    // Act
    await onTerminal(lifecycle.deps, completed);
    await onTerminal(lifecycle.deps, aborted);

    // Assess
    const endings = ['ExportsCompleted', 'ExportsFailed', 'ExportsAborted'];
    expect(lifecycle.metrics.filter((name) => endings.includes(name))).toEqual([
      'ExportsCompleted',
      'ExportsAborted',
    ]);
  });

  it('counts an announcement EventBridge refused and still hands the spot to the export queued next', async () => {
    // Prepare: the bus refuses every event (the publisher gave up sending it again).
    const lifecycle = inMemoryLifecycle();
    const running = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const queued = await startExport(lifecycle.deps, {
      spotId: SPOT,
      request: NEXT_DAY,
      source: 'api',
      whenBusy: 'queue',
    });
    const completed = await lifecycle.store.transition(SPOT, running.record.exportId, {
      from: [ExportStatus.REQUESTED],
      to: ExportStatus.COMPLETED,
    });
    const deps = {
      ...lifecycle.deps,
      events: {
        ...lifecycle.deps.events,
        publishTerminal: async () => {
          throw new ExportEventPublishError(running.record.exportId, 'ThrottlingException', 3);
        },
      },
    };

    // Act
    await onTerminal(deps, completed);

    // Assess: the miss is counted, and nothing after the announcement was left undone.
    expect(lifecycle.metrics).toEqual(expect.arrayContaining(['EventsNotPublished', 'ExportsCompleted']));
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(queued.record.exportId);
    expect((await lifecycle.store.getExport(SPOT, queued.record.exportId))?.status).toBe(
      ExportStatus.REQUESTED,
    );
  });

  it('announces the end and records the window even when the table throttles the release, then releases', async () => {
    // Prepare: the first release is refused as DynamoDB refuses it once the SDK gave up.
    const lifecycle = inMemoryLifecycle();
    const running = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const aborted = await lifecycle.store.transition(SPOT, running.record.exportId, {
      from: [ExportStatus.REQUESTED],
      to: ExportStatus.ABORTED,
    });
    const release = lifecycle.spotLocks.release.bind(lifecycle.spotLocks);
    let refusals = 1;
    const deps = {
      ...lifecycle.deps,
      spotLocks: Object.assign(Object.create(lifecycle.spotLocks), {
        release: async (spotId: string, exportId: string) => {
          if (refusals-- > 0)
            throw Object.assign(new Error('Rate exceeded'), {
              name: 'ThrottlingException',
              $fault: 'client',
            });
          return release(spotId, exportId);
        },
      }),
    };

    // Act
    await onTerminal(deps, aborted);

    // Assess: announced and counted, and the spot free after the second try.
    expect(lifecycle.published.map((record) => record.exportId)).toEqual([running.record.exportId]);
    expect(lifecycle.metrics).toContain('ExportsAborted');
    expect(await lifecycle.spotLocks.get(SPOT)).toBeUndefined();
  });

  it('throws a release failure that will not pass (a missing grant), before announcing anything', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const running = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });
    const failed = await lifecycle.store.transition(SPOT, running.record.exportId, {
      from: [ExportStatus.REQUESTED],
      to: ExportStatus.FAILED,
    });
    const denied = Object.assign(new Error('denied'), { name: 'AccessDeniedException', $fault: 'client' });
    const deps = {
      ...lifecycle.deps,
      spotLocks: Object.assign(Object.create(lifecycle.spotLocks), {
        release: async () => {
          throw denied;
        },
      }),
    };

    // Act / Assess
    await expect(onTerminal(deps, failed)).rejects.toBe(denied);
    expect(lifecycle.published).toEqual([]);
  });

  it('does nothing for an export that has not ended', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { record } = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    await onTerminal(lifecycle.deps, record);

    // Assess
    expect(lifecycle.published).toEqual([]);
    expect((await lifecycle.spotLocks.get(SPOT))?.exportId).toBe(record.exportId);
  });
});
