import { describe, expect, it } from 'vitest';
import { startExport } from '../../../../../lib/exports/queue/startExport';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { UpstreamUnavailableError } from '../../../../../lib/exports/upstream/errors';
import {
  ensurePollingWorkflow,
  exportDeadlineMs,
  startWorkflowExecution,
} from '../../../../../lib/exports/workflow/startWorkflow';
import { captureError } from '../../../../support/captureError';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { inMemoryLifecycle } from '../../../../support/inMemoryPorts';

const SPOT = 'sp_demo';
const DAY = { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' } as const;

describe('exportDeadlineMs', () => {
  it('counts the deadline from when the export left the queue, not from when it was queued', () => {
    // Prepare
    const settings = { exportDeadlineSeconds: 3600 };
    const requestedAt = '2026-11-01T00:00:00.000Z';

    // Act / Assess
    expect(exportDeadlineMs({ settings } as never, exportRecordFixture({ requestedAt }))).toBe(
      Date.parse(requestedAt) + 3_600_000,
    );
    expect(
      exportDeadlineMs(
        { settings } as never,
        exportRecordFixture({ requestedAt, dequeuedAt: '2026-11-01T05:00:00.000Z' }),
      ),
    ).toBe(Date.parse('2026-11-01T06:00:00.000Z'));
  });
});

describe('startWorkflowExecution', () => {
  it("starts the named execution with the export's deadline and first wait", async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle({ exportDeadlineSeconds: 3600, defaultFirstPollDelaySeconds: 90 });
    const record = exportRecordFixture({ spotId: SPOT, requestedAt: '2026-11-01T00:00:00.000Z' });

    // Act
    const started = await startWorkflowExecution(lifecycle.deps, record, 'run-1');

    // Assess
    expect(started).toBe(true);
    expect(lifecycle.workflows.started.get('run-1')).toEqual({
      spotId: SPOT,
      exportId: record.exportId,
      firstPollDelaySeconds: 90,
      deadline: '2026-11-01T01:00:00.000Z',
    });
  });

  it('leaves a passing failure to the reconciler, counted, and throws one that will not pass', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const failures = [new UpstreamUnavailableError('throttled'), new TypeError('no such state machine')];
    lifecycle.deps.workflows.start = async () => {
      throw failures.shift();
    };

    // Act
    const passing = await startWorkflowExecution(lifecycle.deps, exportRecordFixture(), 'run-1');
    const lasting = await captureError(
      startWorkflowExecution(lifecycle.deps, exportRecordFixture(), 'run-2'),
    );

    // Assess
    expect(passing).toBe(false);
    expect(lifecycle.metrics).toEqual(['WorkflowStartsFailed']);
    expect(lasting).toBeInstanceOf(TypeError);
  });

  it('leaves to the reconciler a StartExecution Step Functions throttled after the SDK gave up', async () => {
    // Prepare: as the SDK hands it over once its attempts are spent: a client fault, not marked retryable.
    const lifecycle = inMemoryLifecycle();
    lifecycle.deps.workflows.start = async () => {
      throw Object.assign(new Error('Rate exceeded'), {
        name: 'ThrottlingException',
        $fault: 'client',
        $metadata: { httpStatusCode: 400, attempts: 3 },
      });
    };

    // Act
    const started = await startWorkflowExecution(lifecycle.deps, exportRecordFixture(), 'run-1');

    // Assess
    expect(started).toBe(false);
    expect(lifecycle.metrics).toEqual(['WorkflowStartsFailed']);
  });
});

describe('ensurePollingWorkflow', () => {
  it('gives an export without a workflow one and records its name; an attempt gets a name of its own', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const { record } = await startExport(lifecycle.deps, { spotId: SPOT, request: DAY, source: 'api' });

    // Act
    const unchanged = await ensurePollingWorkflow(lifecycle.deps, record);
    const again = await ensurePollingWorkflow(lifecycle.deps, record, 2);

    // Assess
    expect(unchanged).toEqual(record);
    expect(again.workflowExecutionName).toBe(`${record.exportId}-r2`);
    expect([...lifecycle.workflows.started.keys()]).toEqual([record.exportId, `${record.exportId}-r2`]);
  });

  it('starts nothing for an export that has ended', async () => {
    // Prepare
    const lifecycle = inMemoryLifecycle();
    const ended = exportRecordFixture({ status: ExportStatus.COMPLETED });

    // Act
    const result = await ensurePollingWorkflow(lifecycle.deps, ended, 1);

    // Assess
    expect(result).toBe(ended);
    expect(lifecycle.workflows.started.size).toBe(0);
  });
});
