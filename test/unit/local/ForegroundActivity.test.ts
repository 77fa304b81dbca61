import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractedStateMachine } from '../../../infra/extractStateMachine';
import { HandlerNames, ROUTES } from '../../../lib/http/routeTable';
import { ForegroundActivity } from '../../../local/ForegroundActivity';
import { type LocalHttpApi, startLocalHttpApi } from '../../../local/http/LocalHttpApi';
import { LocalPollingWorkflows } from '../../../local/LocalPollingWorkflows';

const TASK_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:workflow-task';
const ONE_TASK_MACHINE: ExtractedStateMachine = {
  logicalId: 'OneTask',
  definition: {
    StartAt: 'Work',
    States: { Work: { Type: 'Task', Resource: TASK_ARN, End: true } },
  } as unknown as ExtractedStateMachine['definition'],
  taskHandlers: { [TASK_ARN]: HandlerNames.WORKFLOW_TASK },
};

/** Whether the promise settles within the given real time. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);
}

describe('ForegroundActivity', () => {
  it('lets background work through at once when no request is in flight', async () => {
    const activity = new ForegroundActivity({ maxDeferMs: 60_000 });
    expect(await settlesWithin(activity.whenIdle(), 50)).toBe(true);
  });

  it('holds background work until the last request in flight has ended', async () => {
    // Prepare
    const activity = new ForegroundActivity({ maxDeferMs: 60_000 });
    const endFirst = activity.begin();
    const endSecond = activity.begin();

    // Act
    const idle = activity.whenIdle();
    endFirst();
    endFirst(); // ending twice counts once
    const afterOne = await settlesWithin(idle, 50);
    endSecond();

    // Assess
    expect(afterOne).toBe(false);
    expect(activity.inFlight).toBe(0);
    expect(await settlesWithin(idle, 50)).toBe(true);
  });

  it('does not let a steady stream of requests starve background work', async () => {
    const activity = new ForegroundActivity({ maxDeferMs: 30 });
    activity.begin();
    expect(await settlesWithin(activity.whenIdle(), 1_000)).toBe(true);
    expect(activity.inFlight).toBe(1);
  });
});

describe('the local runtime lets API requests go first', () => {
  let api: LocalHttpApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('counts an API request in flight until its answer is sent', async () => {
    // Prepare
    const activity = new ForegroundActivity({ maxDeferMs: 60_000 });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inFlightSeen: number[] = [];
    api = await startLocalHttpApi({
      port: 0,
      routes: ROUTES,
      activity,
      invoke: async () => {
        inFlightSeen.push(activity.inFlight);
        await released;
        return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
      },
    });

    // Act
    const answer = fetch(`${api.url}/exports`, { headers: { 'x-spot-id': 'sp_demo' } });
    await sleep(50);
    const idleWhileAnswering = await settlesWithin(activity.whenIdle(), 20);
    release();
    const response = await answer;
    await response.text();

    // Assess
    expect(inFlightSeen).toEqual([1]);
    expect(idleWhileAnswering).toBe(false);
    expect(await settlesWithin(activity.whenIdle(), 200)).toBe(true);
  });

  it('starts no workflow task while the gate is closed, and runs it once it opens', async () => {
    // Prepare
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const invoked: unknown[] = [];
    const workflows = new LocalPollingWorkflows({
      stateMachine: ONE_TASK_MACHINE,
      invoke: async (_handler, event) => {
        invoked.push(event);
        return { done: true };
      },
      beforeWork: () => gate,
    });

    // Act
    await workflows.start('ex_gated', { exportId: 'ex_gated' } as never);
    await sleep(50);
    const invokedWhileClosed = invoked.length;
    open();
    await workflows.whenFinished('ex_gated');

    // Assess
    expect(invokedWhileClosed).toBe(0);
    expect(invoked).toEqual([{ exportId: 'ex_gated' }]);
  });
});
