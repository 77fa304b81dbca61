import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ExtractedStateMachine,
  stateMachineDefinitionFromTemplate,
} from '../../../infra/stateMachineDefinition';
import { synthesizeStackTemplate } from '../../../infra/synthesizeStackTemplate';
import type { ExportRequest } from '../../../lib/exports/ExportRecord';
import { ExportStatus } from '../../../lib/exports/ExportStatus';
import { startExport } from '../../../lib/exports/startExport';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { type ExecutionOutcome, LocalPollingWorkflows } from '../../../local/LocalPollingWorkflows';
import { invokeLocalHandler, type LocalHandlers, localHandlers } from '../../../local/localHandlers';
import {
  type ExportHarness,
  type ExportHarnessOptions,
  startExportHarness,
} from '../../support/exportHarness';

const SPOT = 'sp_demo';
const DAY: ExportRequest = { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' };
// Deployed waits and retry intervals × this: a 10 s poll interval takes 2 ms, the 300 s cap 60 ms.
const WORKFLOW_TIME_SCALE = 0.0002;

describe('the synthesized polling workflow run locally against the real handlers', () => {
  let stateMachine: ExtractedStateMachine;
  let h: ExportHarness;
  let workflows: LocalPollingWorkflows;
  const outcomes = new Map<string, ExecutionOutcome>();

  beforeAll(() => {
    stateMachine = stateMachineDefinitionFromTemplate(synthesizeStackTemplate());
  }, 60_000);

  afterEach(async () => {
    await workflows.stopAll();
    await h.close();
    outcomes.clear();
  });

  async function startHarness(options: ExportHarnessOptions): Promise<void> {
    let handlers: LocalHandlers | undefined;
    workflows = new LocalPollingWorkflows({
      stateMachine,
      timeScale: WORKFLOW_TIME_SCALE,
      invoke: (handler, event) => invokeLocalHandler(handlers as LocalHandlers, handler, event),
      onExecutionEnd: (name, outcome) => outcomes.set(name, outcome),
    });
    h = await startExportHarness({ ...options, realTime: true, workflows });
    handlers = localHandlers(handlerRuntimeFor(h.deps));
  }

  async function runToEnd() {
    const { record } = await startExport(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    await workflows.whenFinished(record.exportId);
    return { started: record, final: await h.store.getExport(SPOT, record.exportId) };
  }

  it('polls an export until it completes and records its links', async () => {
    // Prepare: a day's export lasts 30 s + 24 min upstream; at this scale about 0.3 s.
    await startHarness({ simulator: { timeScale: 0.0002 } });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(started.status).toBe(ExportStatus.PROCESSING);
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(final?.links.length).toBeGreaterThan(0);
    expect(outcomes.get(started.exportId)).toBe('succeeded');
    expect(h.simulator.requestsTo('status').length).toBeGreaterThanOrEqual(1);
  });

  it('ends FAILED when the upstream export fails', async () => {
    // Prepare
    await startHarness({ simulator: { timeScale: 0.0002, outcome: () => 'failed' } });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.FAILED);
    expect(final?.failureReason).toContain('Failed');
    expect(outcomes.get(started.exportId)).toBe('succeeded');
  });

  it('aborts the upstream export and ends ABORTED when the deadline passes', async () => {
    // Prepare: the export would run for days; the deadline is one second away.
    await startHarness({
      simulator: { exportDurationMs: () => 7 * 24 * 60 * 60 * 1000 },
      settings: { exportDeadlineSeconds: 1 },
    });

    // Act
    const { started, final } = await runToEnd();

    // Assess
    expect(final?.status).toBe(ExportStatus.ABORTED);
    expect(final?.failureReason).toBe('polling deadline passed');
    expect(h.simulator.getExport(started.upstreamExportId as string)?.state).toBe('aborted');
    expect(outcomes.get(started.exportId)).toBe('failed');
    expect(await h.store.getSpotLock(SPOT)).toBeUndefined();
  });
});
