import { describe, expect, it } from 'vitest';
import { makeErasureTaskHandler } from '../../../functions/erasure-task';
import { erasureIdOf } from '../../../lib/exports/erasure/ErasureRecord';
import { requestErasure } from '../../../lib/exports/erasure/requestErasure';
import type { ErasureDependencies } from '../../../lib/exports/erasure/runErasure';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../local/InMemoryExportMetrics';
import { lambdaContext, silentLogger } from '../../support/apiGatewayEvents';
import { captureError } from '../../support/captureError';
import {
  InMemoryErasureStore,
  inMemorySuppressions,
  RecordingErasureWorkflows,
} from '../lib/exports/erasure/fakeErasures';

const NOW = Date.parse('2026-11-01T00:00:00Z');
const SPOT = 'sp_a';

function handlerWith(erasures: InMemoryErasureStore, published: string[]) {
  const deps: ErasureDependencies & { metrics: InMemoryExportMetrics } = {
    erasures,
    store: { listExports: async () => ({ items: [] }) },
    eraser: {
      eraseFromExport: async () => ({ filesRead: 0, rewritten: [] }),
      checkExport: async () => ({ filesChecked: 0, rowsFound: 0, versionsLeft: 0 }),
    },
    erasureEvents: { publishErasureCompleted: async (record) => void published.push(record.erasureId) },
    now: () => NOW,
    metrics: new InMemoryExportMetrics(),
  };
  return makeErasureTaskHandler(handlerRuntimeFor(deps, { logger: silentLogger() }));
}

describe('erasure-task handler', () => {
  it('runs a slice of the erasure the workflow names and answers its outcome', async () => {
    // Prepare
    const erasures = new InMemoryErasureStore();
    const published: string[] = [];
    await requestErasure(
      {
        erasures,
        suppressions: inMemorySuppressions([]),
        erasureWorkflows: new RecordingErasureWorkflows(),
        now: () => NOW,
      },
      { spotId: SPOT, userId: 'u_nobody' },
    );
    const erasureId = erasureIdOf(SPOT, 'u_nobody');
    const input = { spotId: SPOT, erasureId, runId: erasureId, passes: 0 };

    // Act
    const output = await handlerWith(erasures, published)(input, lambdaContext());

    // Assess
    expect(output).toEqual({ ...input, passes: 1, outcome: 'finished' });
    expect(erasures.records.get(erasureId)?.status).toBe('COMPLETED');
    expect(published).toEqual([erasureId]);
  });

  it('refuses an event that is not the workflow’s task input', async () => {
    // Act
    const error = await captureError(
      handlerWith(new InMemoryErasureStore(), [])({ source: 'reconciler' }, lambdaContext()),
    );

    // Assess
    expect(error).toBeInstanceOf(UnrecognisedEventError);
  });
});
