import aslValidator from 'asl-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractedStateMachine } from '../../../infra/extractStateMachine';
import {
  ARCHIVE_RETRY,
  ARCHIVE_RETRY_ERRORS,
  CREATE_RETRY_ERRORS,
  CREATE_RETRY_INTERVAL_SECONDS,
  CREATE_RETRY_MAX_DELAY_SECONDS,
  createRetry,
  executionTimeout,
  FINISHING_POLL_RETRY,
  LAMBDA_SERVICE_ERRORS,
  POLL_RETRY_ERRORS,
  statusPollRetry,
  TASK_TIMEOUT_ERRORS,
} from '../../../infra/workflowRetries';
import {
  WORKFLOW_TASK_ERRORS,
  WorkflowErrorNames,
  type WorkflowTaskAction,
} from '../../../lib/exports/workflow/workflowContract';
import { HandlerNames } from '../../../lib/http/routeTable';
import { extractStateMachineDefinition } from './extractStateMachineDefinition';
import { removeTestAssemblies, synthesizeTestStack } from './synthesizeTestStack';

interface RetrierJson {
  ErrorEquals: string[];
  IntervalSeconds: number;
  MaxAttempts: number;
  BackoffRate: number;
  MaxDelaySeconds: number;
  JitterStrategy: string;
}

interface StateJson {
  Type: string;
  Resource?: string;
  Parameters?: Record<string, unknown>;
  Retry?: RetrierJson[];
  Catch?: { ErrorEquals: string[]; ResultPath?: string; Next: string }[];
  Next?: string;
  SecondsPath?: string;
  Error?: string;
  [key: string]: unknown;
}

const customPolling = {
  exportDeadlineSeconds: 3_600,
  statusPollIntervalSeconds: 15,
  statusPollMaxDelaySeconds: 120,
};

let defaults: ExtractedStateMachine;
let custom: ExtractedStateMachine;

beforeAll(() => {
  defaults = extractStateMachineDefinition(synthesizeTestStack().template);
  custom = extractStateMachineDefinition(synthesizeTestStack({ polling: customPolling }).template);
});

afterAll(() => {
  removeTestAssemblies();
});

function stateOf(machine: ExtractedStateMachine, name: string): StateJson {
  const state = (machine.definition.States as Record<string, StateJson>)[name];
  if (state === undefined) throw new Error(`no state ${name}`);
  return state;
}

describe('PollingWorkflow', () => {
  it('synthesizes a definition that asl-validator accepts', () => {
    // Act
    const result = aslValidator(structuredClone(defaults.definition));

    // Assess
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('starts by creating the export upstream through workflow-task, then waits as long as its output says', () => {
    // Act
    const create = stateOf(defaults, defaults.definition.StartAt);
    const wait = stateOf(defaults, create.Next as string);

    // Assess
    expect(defaults.definition.StartAt).toBe('CreateUpstreamExport');
    expect(create.Type).toBe('Task');
    expect(defaults.taskHandlers[create.Resource as string]).toBe(HandlerNames.WORKFLOW_TASK);
    expect(create.Parameters).toEqual({
      action: 'create',
      'spotId.$': '$.spotId',
      'exportId.$': '$.exportId',
      'deadline.$': '$.deadline',
    });
    expect(create).not.toHaveProperty('ResultPath');
    expect(wait).toMatchObject({
      Type: 'Wait',
      SecondsPath: '$.firstPollDelaySeconds',
      Next: 'PollExportStatus',
    });
  });

  it('retries a deferred create with capped exponential backoff and full jitter until the deadline', () => {
    // Act
    const retriers = stateOf(defaults, 'CreateUpstreamExport').Retry ?? [];

    // Assess
    expect(retriers).toEqual([
      {
        ErrorEquals: [...CREATE_RETRY_ERRORS],
        IntervalSeconds: CREATE_RETRY_INTERVAL_SECONDS,
        BackoffRate: 2,
        MaxDelaySeconds: CREATE_RETRY_MAX_DELAY_SECONDS,
        JitterStrategy: 'FULL',
        MaxAttempts: createRetry({ exportDeadlineSeconds: 21_600 }).maxAttempts,
      },
    ]);
    expect(retriers[0]?.ErrorEquals).toEqual(
      expect.arrayContaining([WorkflowErrorNames.CREATE_DEFERRED, 'Lambda.TooManyRequestsException']),
    );
  });

  it('ends a rejected create in ExportRejected, and a create past the deadline in the abort path', () => {
    // Act
    const catchers = stateOf(defaults, 'CreateUpstreamExport').Catch ?? [];

    // Assess
    expect(catchers).toEqual([
      {
        ErrorEquals: [WorkflowErrorNames.POLLING_TIMED_OUT, ...CREATE_RETRY_ERRORS],
        ResultPath: '$.createError',
        Next: 'AbortOnTimeout',
      },
      {
        ErrorEquals: [WorkflowErrorNames.CREATE_REJECTED],
        ResultPath: '$.createError',
        Next: 'ExportRejected',
      },
      { ErrorEquals: ['States.ALL'], ResultPath: '$.createError', Next: 'PollingFailed' },
    ]);
    expect(stateOf(defaults, 'ExportRejected')).toMatchObject({
      Type: 'Fail',
      Error: WorkflowErrorNames.CREATE_REJECTED,
    });
  });

  it('polls through workflow-task with the poll task input and keeps the default result path', () => {
    // Act
    const poll = stateOf(defaults, 'PollExportStatus');

    // Assess
    expect(poll.Type).toBe('Task');
    expect(defaults.taskHandlers[poll.Resource as string]).toBe(HandlerNames.WORKFLOW_TASK);
    expect(poll.Parameters).toEqual({
      action: 'poll',
      'spotId.$': '$.spotId',
      'exportId.$': '$.exportId',
      'deadline.$': '$.deadline',
    });
    expect(poll).not.toHaveProperty('ResultPath');
    expect(poll.Next).toBe('ArchiveIfCompleted');
    expect(stateOf(defaults, 'ExportFinished').Type).toBe('Succeed');
  });

  it('archives a COMPLETED export after the poll loop, and ends other outcomes at once', () => {
    // Act
    const choice = stateOf(defaults, 'ArchiveIfCompleted') as StateJson & {
      Choices: { Variable: string; StringEquals: string; Next: string }[];
      Default: string;
    };
    const archive = stateOf(defaults, 'ArchiveFiles');
    const recordFailure = stateOf(defaults, 'RecordArchiveFailure');

    // Assess
    expect(choice.Type).toBe('Choice');
    expect(choice.Choices).toEqual([
      { Variable: '$.status', StringEquals: 'COMPLETED', Next: 'ArchiveFiles' },
    ]);
    expect(choice.Default).toBe('ExportFinished');
    expect(defaults.taskHandlers[archive.Resource as string]).toBe(HandlerNames.ARCHIVE);
    expect(archive.Parameters).toEqual({
      action: 'archive',
      'spotId.$': '$.spotId',
      'exportId.$': '$.exportId',
    });
    expect(archive.Next).toBe('ExportFinished');
    expect(archive.Retry?.[0]).toMatchObject({
      ErrorEquals: [...ARCHIVE_RETRY_ERRORS],
      JitterStrategy: 'FULL',
      MaxAttempts: ARCHIVE_RETRY.maxAttempts,
    });
    // Out of retries, or an unexpected error: the archive is recorded FAILED with the error, and the run fails visibly.
    expect(archive.Catch).toEqual([
      { ErrorEquals: ['States.ALL'], ResultPath: '$.archiveError', Next: 'RecordArchiveFailure' },
    ]);
    expect(recordFailure.Parameters).toEqual({
      action: 'archiveFailed',
      'spotId.$': '$.spotId',
      'exportId.$': '$.exportId',
      'error.$': '$.archiveError',
    });
    expect(recordFailure.Next).toBe('ArchiveFailed');
    expect(stateOf(defaults, 'ArchiveFailed').Type).toBe('Fail');
  });

  it('loops by retrying "still processing" with capped exponential backoff and full jitter', () => {
    // Act
    const retriers = stateOf(defaults, 'PollExportStatus').Retry ?? [];
    const [stillProcessing, finishing] = retriers;

    // Assess
    expect(retriers).toHaveLength(2);
    // Within the export's expected end, a few seconds apart, growing gently.
    expect(finishing).toEqual({
      ErrorEquals: [WorkflowErrorNames.FINISHING],
      IntervalSeconds: 5,
      BackoffRate: 1.5,
      MaxDelaySeconds: 30,
      JitterStrategy: 'FULL',
      MaxAttempts: FINISHING_POLL_RETRY.maxAttempts,
    });
    expect(stillProcessing).toEqual({
      ErrorEquals: [...POLL_RETRY_ERRORS],
      IntervalSeconds: 10,
      BackoffRate: 2,
      MaxDelaySeconds: 300,
      JitterStrategy: 'FULL',
      MaxAttempts: statusPollRetry({
        exportDeadlineSeconds: 21_600,
        statusPollIntervalSeconds: 10,
        statusPollMaxDelaySeconds: 300,
      }).maxAttempts,
    });
  });

  it('takes the poll schedule from the configuration', () => {
    // Act
    const [stillProcessing] = stateOf(custom, 'PollExportStatus').Retry ?? [];

    // Assess
    expect(stillProcessing).toMatchObject({
      IntervalSeconds: 15,
      MaxDelaySeconds: 120,
      MaxAttempts: statusPollRetry(customPolling).maxAttempts,
    });
    expect(custom.definition.TimeoutSeconds).toBe(executionTimeout(customPolling).timeoutSeconds);
  });

  it('retries transient upstream and Lambda errors as polls, in the one budget bounded by the deadline', () => {
    // Act
    const [retrier] = stateOf(defaults, 'PollExportStatus').Retry ?? [];

    // Assess: a per-execution budget of a few attempts would let the 7th hiccup of a long export fail it.
    expect(retrier?.ErrorEquals).toEqual(
      expect.arrayContaining([
        WorkflowErrorNames.STILL_PROCESSING,
        'UpstreamUnavailable',
        'Lambda.ServiceException',
        'Lambda.TooManyRequestsException',
      ]),
    );
    expect(retrier?.MaxAttempts).toBeGreaterThan(100);
  });

  it('aborts the export when polling times out or runs out of attempts; archives one that completed first, fails the rest', () => {
    // Act
    const poll = stateOf(defaults, 'PollExportStatus');
    const abort = stateOf(defaults, 'AbortOnTimeout');

    // Assess
    expect(poll.Catch?.[0]).toEqual({
      ErrorEquals: [WorkflowErrorNames.POLLING_TIMED_OUT, ...POLL_RETRY_ERRORS, WorkflowErrorNames.FINISHING],
      ResultPath: '$.pollError',
      Next: 'AbortOnTimeout',
    });
    expect(defaults.taskHandlers[abort.Resource as string]).toBe(HandlerNames.WORKFLOW_TASK);
    expect(abort.Parameters).toEqual({
      action: 'abortOnTimeout',
      'spotId.$': '$.spotId',
      'exportId.$': '$.exportId',
    });
    expect(abort).not.toHaveProperty('ResultPath');
    const afterAbort = stateOf(defaults, abort.Next as string) as StateJson & {
      Choices: { Variable: string; StringEquals: string; Next: string }[];
      Default: string;
    };
    expect(afterAbort.Choices).toEqual([
      { Variable: '$.status', StringEquals: 'COMPLETED', Next: 'ArchiveFiles' },
    ]);
    expect(stateOf(defaults, afterAbort.Default)).toMatchObject({
      Type: 'Fail',
      Error: WorkflowErrorNames.POLLING_TIMED_OUT,
    });
  });

  it('sends every other error to a Fail state', () => {
    // Act
    const pollCatchers = stateOf(defaults, 'PollExportStatus').Catch ?? [];
    const abortCatchers = stateOf(defaults, 'AbortOnTimeout').Catch ?? [];

    // Assess
    for (const catchers of [pollCatchers, abortCatchers]) {
      const last = catchers.at(-1);
      expect(last?.ErrorEquals).toEqual(['States.ALL']);
      expect(stateOf(defaults, last?.Next as string).Type).toBe('Fail');
    }
  });

  it('costs one state transition per poll: no Wait or Choice inside the loop', () => {
    // Act
    const types = Object.entries(defaults.definition.States as Record<string, StateJson>).map(
      ([name, state]) => `${name}:${state.Type}`,
    );

    // Assess: the Choices come after the loop, once per export.
    expect(types.filter((entry) => entry.endsWith(':Choice')).sort()).toEqual([
      'ArchiveIfCompleted:Choice',
      'ArchiveIfCompletedAfterAbort:Choice',
    ]);
    expect(stateOf(defaults, 'PollExportStatus').Next).toBe('ArchiveIfCompleted');
    expect(types.filter((entry) => entry.endsWith(':Wait'))).toEqual(['WaitForFirstPoll:Wait']);
  });

  it('gives up only after the longest path through it: the deadline, the poll that notices it, the archive and its retries', () => {
    // Prepare: the worst case of every task, read from the definition itself
    const states = defaults.definition.States as Record<string, StateJson>;
    const worstCase = (name: string): number => {
      const state = states[name] as StateJson & { TimeoutSeconds?: number };
      const [retrier] = state.Retry ?? [];
      let delays = 0;
      for (let attempt = 0; attempt < (retrier?.MaxAttempts ?? 0); attempt += 1) {
        delays += Math.min(
          (retrier?.IntervalSeconds ?? 0) * (retrier?.BackoffRate ?? 1) ** attempt,
          retrier?.MaxDelaySeconds ?? Number.POSITIVE_INFINITY,
        );
      }
      return ((retrier?.MaxAttempts ?? 0) + 1) * (state.TimeoutSeconds ?? 0) + delays;
    };
    const loopEnd = (name: string): number => {
      const state = states[name] as StateJson & { TimeoutSeconds?: number };
      return (state.Retry?.[0]?.MaxDelaySeconds ?? 0) + (state.TimeoutSeconds ?? 0);
    };

    // Act
    const longestPathSeconds =
      21_600 +
      Math.max(loopEnd('CreateUpstreamExport'), loopEnd('PollExportStatus')) +
      Math.max(worstCase('AbortOnTimeout'), worstCase('ArchiveFiles') + worstCase('RecordArchiveFailure'));

    // Assess
    expect(defaults.definition.TimeoutSeconds as number).toBeGreaterThanOrEqual(longestPathSeconds);
  });

  it('gives every task a timeout, and keys its Retry and Catch only on errors its target can raise', () => {
    // Prepare: what each task's handler throws by name (the contract), what Lambda and Step Functions raise
    const actions = defaults.definition.States as Record<string, StateJson & { TimeoutSeconds?: number }>;
    const platform = new Set<string>([
      ...LAMBDA_SERVICE_ERRORS,
      'Sandbox.Timedout',
      'Lambda.Unknown',
      'States.ALL',
    ]);

    for (const [name, state] of Object.entries(actions)) {
      if (state.Type !== 'Task') continue;
      const action = (state.Parameters as { action: WorkflowTaskAction }).action;
      const raisable = new Set<string>([
        ...platform,
        ...WORKFLOW_TASK_ERRORS[action],
        ...(state.TimeoutSeconds === undefined ? [] : ['States.Timeout']),
      ]);

      // Act
      const named = [...(state.Retry ?? []), ...(state.Catch ?? [])].flatMap((entry) => entry.ErrorEquals);

      // Assess
      expect(state.TimeoutSeconds, name).toBeGreaterThan(0);
      expect(
        named.filter((error) => !raisable.has(error)),
        name,
      ).toEqual([]);
    }
    // A retrier names States.Timeout only where a task timeout can raise it.
    expect(TASK_TIMEOUT_ERRORS).toContain('States.Timeout');
  });
});
