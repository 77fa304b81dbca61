import { describe, expect, it } from 'vitest';
import { erasureUserRowsFactory, makeErasureTaskHandler } from '../../../functions/erasure-task';
import { ConfigError, loadConfig } from '../../../lib/config';
import { erasureIdOf } from '../../../lib/exports/erasure/ErasureRecord';
import { requestErasure } from '../../../lib/exports/erasure/requestErasure';
import type { ErasureDependencies } from '../../../lib/exports/erasure/runErasure';
import type { AdapterContext } from '../../../lib/runtime/buildDependencies';
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

  describe('the table asked at the end', () => {
    const contextOf = (env: Record<string, string>) =>
      ({ config: loadConfig(env), clients: {}, now: () => NOW }) as unknown as AdapterContext;
    const ARCHIVE = { ARCHIVE_BUCKET_NAME: 'archive-1', LAKE_DATABASE_NAME: 'exports_lake' };

    it("is Athena in the stack's workgroup when the archive writes the table", () => {
      // Act
      const userRows = erasureUserRowsFactory(
        contextOf({ ...ARCHIVE, LAKE_WORK_GROUP_NAME: 'OpenWebExports' }),
      );

      // Assess
      expect(userRows?.describe(SPOT, 'u1')).toContain('workgroup OpenWebExports, database exports_lake');
    });

    it('is none when the archive writes no table, whatever the workgroup', () => {
      // Act
      const userRows = erasureUserRowsFactory(contextOf({ ...ARCHIVE, ARCHIVE_WRITE_TABLE: 'false' }));

      // Assess
      expect(userRows).toBeUndefined();
    });

    it('names the missing workgroup when the archive writes the table', () => {
      // Act
      const error = (() => {
        try {
          erasureUserRowsFactory(contextOf(ARCHIVE));
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();

      // Assess
      expect(error).toBeInstanceOf(ConfigError);
      expect(String((error as Error).message)).toContain('LAKE_WORK_GROUP_NAME');
    });
  });
});
