import { describe, expect, it } from 'vitest';
import { ErasedFileState, ErasureStatus } from '../../../../../lib/exports/erasure/ErasureRecord';
import type { ArchivedUserEraser } from '../../../../../lib/exports/erasure/ports';
import { requestErasure } from '../../../../../lib/exports/erasure/requestErasure';
import { type ErasureDependencies, runErasure } from '../../../../../lib/exports/erasure/runErasure';
import { ArchiveStatus } from '../../../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../../../lib/exports/record/ExportRecord';
import { InMemoryErasureStore, inMemorySuppressions, RecordingErasureWorkflows } from './fakeErasures';

const NOW = Date.parse('2026-11-01T00:00:00Z');
const SPOT = 'sp_a';

function archived(
  exportId: string,
  status: string = ArchiveStatus.ARCHIVED,
  claimedAt?: string,
): ExportRecord {
  return {
    spotId: SPOT,
    exportId,
    status: 'COMPLETED',
    archive: { status, files: [], ...(claimedAt !== undefined && { claimedAt }) },
  } as unknown as ExportRecord;
}

/** An eraser that finds `rowsPerExport` rows of the user in one file of each export, once. */
function fakeEraser(log: string[], rowsLeft = 0): ArchivedUserEraser {
  const erased = new Set<string>();
  return {
    eraseFromExport: async (record, _userId, _known, onRewritten) => {
      log.push(`erase ${record.exportId}`);
      if (erased.has(record.exportId)) return { filesRead: 1, rewritten: [] };
      erased.add(record.exportId);
      const rewritten = [
        {
          exportId: record.exportId,
          name: '1.csv',
          previousKey: `${record.exportId}/1.csv.gz`,
          key: `${record.exportId}/1.r1.csv.gz`,
          rowsRemoved: 2,
          rows: 5,
          sha256: 'f'.repeat(64),
          state: ErasedFileState.REWRITTEN,
        },
      ];
      await onRewritten(rewritten);
      return { filesRead: 1, rewritten };
    },
    checkExport: async () => ({ filesChecked: 1, rowsFound: rowsLeft, versionsLeft: 0 }),
  };
}

function dependencies(exports: ExportRecord[], eraser: ArchivedUserEraser) {
  const erasures = new InMemoryErasureStore();
  const published: string[] = [];
  const deps: ErasureDependencies = {
    erasures,
    store: { listExports: async () => ({ items: exports }) },
    eraser,
    erasureEvents: { publishErasureCompleted: async (record) => void published.push(record.erasureId) },
    now: () => NOW,
  };
  return { deps, erasures, published };
}

const COMMAND = { spotId: SPOT, runId: 'run-1', leaseSeconds: 60 };

describe('runErasure', () => {
  it('erases export by export, records each, verifies, completes and announces it', async () => {
    // Prepare
    const log: string[] = [];
    const { deps, erasures, published } = dependencies(
      [archived('exp_2'), archived('exp_1')],
      fakeEraser(log),
    );
    const { record } = await requestErasure(
      {
        erasures,
        suppressions: inMemorySuppressions([]),
        erasureWorkflows: new RecordingErasureWorkflows(),
        now: () => NOW,
      },
      {
        spotId: SPOT,
        userId: 'u_1',
      },
    );

    // Act
    const result = await runErasure(deps, { ...COMMAND, erasureId: record.erasureId });

    // Assess
    expect(log).toEqual(['erase exp_1', 'erase exp_2']);
    expect(result.outcome).toBe('finished');
    expect(result.record).toMatchObject({
      status: ErasureStatus.COMPLETED,
      exportsDone: ['exp_1', 'exp_2'],
      filesRead: 2,
      verification: { filesChecked: 2, rowsFound: 0, versionsLeft: 0 },
    });
    expect(result.record?.files.map((file) => file.state)).toEqual([
      ErasedFileState.CLEANED,
      ErasedFileState.CLEANED,
    ]);
    expect(result.record?.runId).toBeUndefined();
    expect(published).toEqual([record.erasureId]);
  });

  it('stops a slice between exports with `more`, keeps its lease, and the next slice goes on', async () => {
    // Prepare
    const log: string[] = [];
    const { deps, erasures, published } = dependencies(
      [archived('exp_1'), archived('exp_2'), archived('exp_3')],
      fakeEraser(log),
    );
    const { record } = await requestErasure(
      {
        erasures,
        suppressions: inMemorySuppressions([]),
        erasureWorkflows: new RecordingErasureWorkflows(),
        now: () => NOW,
      },
      { spotId: SPOT, userId: 'u_1' },
    );
    const command = { ...COMMAND, erasureId: record.erasureId, slice: { maxExports: 2 } };

    // Act
    const first = await runErasure(deps, command);
    const second = await runErasure(deps, command);

    // Assess
    expect(first.outcome).toBe('more');
    expect(first.record).toMatchObject({
      status: ErasureStatus.RUNNING,
      exportsDone: ['exp_1', 'exp_2'],
      runId: 'run-1',
    });
    expect(second.outcome).toBe('finished');
    expect(second.record?.status).toBe(ErasureStatus.COMPLETED);
    expect(log).toEqual(['erase exp_1', 'erase exp_2', 'erase exp_3']);
    expect(published).toEqual([record.erasureId]);
  });

  it('erases one export per slice at least, even past its time', async () => {
    // Prepare
    const log: string[] = [];
    const { deps, erasures } = dependencies([archived('exp_1'), archived('exp_2')], fakeEraser(log));
    const { record } = await requestErasure(
      {
        erasures,
        suppressions: inMemorySuppressions([]),
        erasureWorkflows: new RecordingErasureWorkflows(),
        now: () => NOW,
      },
      { spotId: SPOT, userId: 'u_1' },
    );

    // Act
    const result = await runErasure(deps, {
      ...COMMAND,
      erasureId: record.erasureId,
      slice: { untilMs: NOW - 1 },
    });

    // Assess
    expect(result.outcome).toBe('more');
    expect(log).toEqual(['erase exp_1']);
  });

  it('resumes after the exports already done, and leaves one another live run holds alone', async () => {
    // Prepare
    const log: string[] = [];
    const { deps, erasures } = dependencies([archived('exp_1'), archived('exp_2')], fakeEraser(log));
    const { record } = await requestErasure(
      {
        erasures,
        suppressions: inMemorySuppressions([]),
        erasureWorkflows: new RecordingErasureWorkflows(),
        now: () => NOW,
      },
      {
        spotId: SPOT,
        userId: 'u_1',
      },
    );
    const held = await erasures.save({
      ...record,
      exportsDone: ['exp_1'],
      runId: 'other',
      leaseUntil: '2026-11-01T00:01:00.000Z',
    });

    // Act
    const busy = await runErasure(deps, { ...COMMAND, erasureId: record.erasureId });
    await erasures.save({ ...held, leaseUntil: '2026-10-31T23:59:00.000Z' });
    const resumed = await runErasure(deps, { ...COMMAND, erasureId: record.erasureId });

    // Assess
    expect(busy.outcome).toBe('busy');
    expect(log).toEqual(['erase exp_2']);
    expect(resumed.record).toMatchObject({
      status: ErasureStatus.COMPLETED,
      exportsDone: ['exp_1', 'exp_2'],
    });
  });

  it('waits for an archive claimed before the user was suppressed, and fails when the check still finds rows', async () => {
    // Prepare
    const waitingDeps = dependencies(
      [archived('exp_1', ArchiveStatus.PENDING, '2026-10-31T23:00:00.000Z')],
      fakeEraser([]),
    );
    const failingDeps = dependencies([archived('exp_1')], fakeEraser([], 1));
    const request = async (erasures: InMemoryErasureStore) =>
      (
        await requestErasure(
          {
            erasures,
            suppressions: inMemorySuppressions([]),
            erasureWorkflows: new RecordingErasureWorkflows(),
            now: () => NOW,
          },
          { spotId: SPOT, userId: 'u_1' },
        )
      ).record;
    const waiting = await request(waitingDeps.erasures);
    const failing = await request(failingDeps.erasures);

    // Act
    const waited = await runErasure(waitingDeps.deps, { ...COMMAND, erasureId: waiting.erasureId });
    const failed = await runErasure(failingDeps.deps, { ...COMMAND, erasureId: failing.erasureId });

    // Assess
    expect(waited).toMatchObject({ outcome: 'waiting', record: { status: ErasureStatus.RUNNING } });
    expect(failed.record).toMatchObject({ status: ErasureStatus.FAILED, verification: { rowsFound: 1 } });
    expect(failed.record?.reason).toContain('found 1 rows');
    expect(failingDeps.published).toEqual([]);
  });
});
