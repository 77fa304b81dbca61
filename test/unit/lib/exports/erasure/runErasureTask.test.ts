import { describe, expect, it } from 'vitest';
import { ArchiveRetryableError } from '../../../../../lib/archive/errors';
import { ErasureStatus } from '../../../../../lib/exports/erasure/ErasureRecord';
import { ERASURE_LEASE_SECONDS } from '../../../../../lib/exports/erasure/erasureWorkflowContract';
import { ErasureChangedError, ErasureRetryableError } from '../../../../../lib/exports/erasure/errors';
import { requestErasure } from '../../../../../lib/exports/erasure/requestErasure';
import type { ErasureDependencies } from '../../../../../lib/exports/erasure/runErasure';
import { runErasureTask } from '../../../../../lib/exports/erasure/runErasureTask';
import type { ExportRecord } from '../../../../../lib/exports/record/ExportRecord';
import { captureError } from '../../../../support/captureError';
import { InMemoryErasureStore, inMemorySuppressions, RecordingErasureWorkflows } from './fakeErasures';

const NOW = Date.parse('2026-11-01T00:00:00Z');
const SPOT = 'sp_a';

function archived(exportId: string): ExportRecord {
  return {
    spotId: SPOT,
    exportId,
    status: 'COMPLETED',
    archive: { status: 'ARCHIVED', files: [] },
  } as unknown as ExportRecord;
}

async function prepare(eraseFromExport: ErasureDependencies['eraser']['eraseFromExport']) {
  const erasures = new InMemoryErasureStore();
  const deps: ErasureDependencies = {
    erasures,
    store: { listExports: async () => ({ items: [archived('exp_1'), archived('exp_2')] }) },
    eraser: {
      eraseFromExport,
      checkExport: async () => ({ filesChecked: 1, rowsFound: 0, versionsLeft: 0 }),
    },
    erasureEvents: { publishErasureCompleted: async () => {} },
    now: () => NOW,
  };
  const { record } = await requestErasure(
    {
      erasures,
      suppressions: inMemorySuppressions([]),
      erasureWorkflows: new RecordingErasureWorkflows(),
      now: () => NOW,
    },
    { spotId: SPOT, userId: 'u_1' },
  );
  return { deps, erasures, input: { spotId: SPOT, erasureId: record.erasureId, runId: 'run-1', passes: 3 } };
}

describe('runErasureTask', () => {
  it('runs the erasure under the execution’s lease and answers its outcome with one more pass', async () => {
    // Prepare
    const { deps, erasures, input } = await prepare(async () => ({ filesRead: 1, rewritten: [] }));

    // Act
    const output = await runErasureTask(deps, input);

    // Assess
    expect(output).toEqual({ ...input, passes: 4, outcome: 'finished' });
    expect(erasures.records.get(input.erasureId)?.status).toBe(ErasureStatus.COMPLETED);
    expect(ERASURE_LEASE_SECONDS).toBeGreaterThan(15 * 60);
  });

  it('answers busy when another run took the erasure over meanwhile', async () => {
    // Prepare
    const { deps, input } = await prepare(async (record) => {
      throw new ErasureChangedError(record.spotId, 'er_x', undefined);
    });

    // Act
    const output = await runErasureTask(deps, input);

    // Assess
    expect(output.outcome).toBe('busy');
    expect(output.passes).toBe(4);
  });

  it('throws passing trouble as the error the workflow retries, anything else as it is', async () => {
    // Prepare
    const passing = await prepare(async () => {
      throw new ArchiveRetryableError('storage unavailable');
    });
    const bug = new TypeError('a bug');
    const broken = await prepare(async () => {
      throw bug;
    });

    // Act
    const retried = await captureError(runErasureTask(passing.deps, passing.input));
    const failed = await captureError(runErasureTask(broken.deps, broken.input));

    // Assess
    expect(retried).toBeInstanceOf(ErasureRetryableError);
    expect((retried as Error).name).toBe('ErasureRetry');
    expect(failed).toBe(bug);
  });
});
