import aslValidator from 'asl-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERASURE_EXECUTION_TIMEOUT_SECONDS,
  ERASURE_RETRY_ERRORS,
  ERASURE_WORKFLOW_FAILED,
} from '../../../infra/ErasureWorkflow';
import {
  type CloudFormationTemplate,
  type ExtractedStateMachine,
  stateMachineDefinitionFromTemplate,
} from '../../../infra/extractStateMachine';
import { ARCHIVE_RETRY, STEP_FUNCTIONS_MAX_HISTORY_EVENTS } from '../../../infra/workflowRetries';
import {
  ERASURE_WAIT_SECONDS,
  ERASURE_WORKFLOW_MAX_PASSES,
  type ErasureTaskOutput,
  type ErasureWorkflowInput,
} from '../../../lib/exports/erasure/erasureWorkflowContract';
import { ErasureRetryableError } from '../../../lib/exports/erasure/errors';
import { HandlerNames } from '../../../lib/http/routeTable';
import { type ExecutionOutcome, LocalPollingWorkflows } from '../../../local/LocalPollingWorkflows';
import { removeTestAssemblies, synthesizeTestStack } from './synthesizeTestStack';

interface StateJson {
  Type: string;
  Resource?: string;
  Retry?: { ErrorEquals: string[]; MaxAttempts: number; IntervalSeconds: number; JitterStrategy?: string }[];
  Catch?: { ErrorEquals: string[]; Next: string }[];
  Next?: string;
  Seconds?: number;
  Error?: string;
  [key: string]: unknown;
}

// A minute's wait takes 6 ms; the retries' 10 s, 1 ms.
const TIME_SCALE = 0.0001;
const ERASURE = { spotId: 'sp_demo', erasureId: `er_${'a'.repeat(24)}` };
/** Step Functions' events for one slice and its wait: task entered, scheduled, started, succeeded, exited; choice in, out; wait in, out. */
const HISTORY_EVENTS_PER_SLICE = 9;

let erasure: ExtractedStateMachine;

beforeAll(() => {
  const template = synthesizeTestStack().template.toJSON() as CloudFormationTemplate;
  erasure = stateMachineDefinitionFromTemplate(template, { workflow: 'erasure' });
}, 60_000);

afterAll(removeTestAssemblies);

function states(): Record<string, StateJson> {
  return erasure.definition.States as Record<string, StateJson>;
}

describe('the erasure workflow definition', () => {
  it('is valid ASL whose one task runs the erasure-task function', async () => {
    // Act
    const { isValid, errors } = aslValidator(erasure.definition);
    const task = states().EraseSlice as StateJson;

    // Assess
    expect(isValid, JSON.stringify(errors)).toBe(true);
    expect(erasure.taskHandlers[task.Resource as string]).toBe(HandlerNames.ERASURE_TASK);
    expect(erasure.definition.StartAt).toBe('EraseSlice');
    expect(erasure.definition.TimeoutSeconds).toBe(ERASURE_EXECUTION_TIMEOUT_SECONDS);
  });

  it('retries passing trouble and Lambda’s own errors with full jitter, and fails on anything else', () => {
    // Act
    const task = states().EraseSlice as StateJson;

    // Assess
    expect(task.Retry).toEqual([
      expect.objectContaining({
        ErrorEquals: [...ERASURE_RETRY_ERRORS],
        MaxAttempts: ARCHIVE_RETRY.maxAttempts,
        IntervalSeconds: ARCHIVE_RETRY.intervalSeconds,
        JitterStrategy: 'FULL',
      }),
    ]);
    expect(task.Catch).toEqual([
      expect.objectContaining({ ErrorEquals: ['States.ALL'], Next: 'ErasureFailed' }),
    ]);
    expect(states().ErasureFailed).toMatchObject({ Type: 'Fail', Error: ERASURE_WORKFLOW_FAILED });
    expect(states().WaitBeforeNextSlice).toMatchObject({ Type: 'Wait', Seconds: ERASURE_WAIT_SECONDS });
  });

  it('keeps an execution’s history below Step Functions’ bound, every retry spent on every slice', () => {
    // Act: a retried attempt adds its scheduled, started and failed events, and the retry.
    const worstPerSlice = HISTORY_EVENTS_PER_SLICE + 4 * ARCHIVE_RETRY.maxAttempts;

    // Assess
    expect(ERASURE_WORKFLOW_MAX_PASSES * worstPerSlice).toBeLessThan(STEP_FUNCTIONS_MAX_HISTORY_EVENTS);
  });
});

describe('the synthesized erasure workflow run locally', () => {
  /** Runs one execution whose task answers the scripted outcomes (or throws), in turn. */
  async function run(script: (ErasureTaskOutput['outcome'] | Error)[]) {
    const calls: ErasureWorkflowInput[] = [];
    let ended: ExecutionOutcome | undefined;
    const workflows = new LocalPollingWorkflows({
      stateMachine: erasure,
      timeScale: TIME_SCALE,
      invoke: async (handler, event) => {
        expect(handler).toBe(HandlerNames.ERASURE_TASK);
        const input = event as ErasureWorkflowInput;
        calls.push(input);
        const next = script[calls.length - 1] ?? 'finished';
        if (next instanceof Error) throw next;
        return { ...input, passes: input.passes + 1, outcome: next } satisfies ErasureTaskOutput;
      },
      onExecutionEnd: (_name, outcome) => {
        ended = outcome;
      },
    });
    await workflows.start(ERASURE.erasureId, { ...ERASURE, runId: ERASURE.erasureId, passes: 0 });
    // Starting the same name again is the same execution.
    await workflows.start(ERASURE.erasureId, { ...ERASURE, runId: 'another', passes: 0 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await workflows.whenFinished(ERASURE.erasureId);
    await workflows.stopAll();
    return { calls, ended };
  }

  it('runs slices until the erasure is finished: at once after `more`, after a wait when busy or waiting', async () => {
    // Act
    const { calls, ended } = await run(['more', 'waiting', 'busy', 'finished']);

    // Assess
    expect(ended).toBe('succeeded');
    expect(calls.map((call) => call.passes)).toEqual([0, 1, 2, 3]);
    expect(new Set(calls.map((call) => call.runId))).toEqual(new Set([ERASURE.erasureId]));
  });

  it('runs a slice again after passing trouble, where the record says', async () => {
    // Act
    const { calls, ended } = await run([new ErasureRetryableError(ERASURE.erasureId), 'finished']);

    // Assess
    expect(ended).toBe('succeeded');
    expect(calls.map((call) => call.passes)).toEqual([0, 0]);
  });

  it('fails on an error it does not retry, leaving the erasure to the reconciler', async () => {
    // Act
    const { calls, ended } = await run([new Error('a bug')]);

    // Assess
    expect(ended).toBe('failed');
    expect(calls).toHaveLength(1);
  });
});
