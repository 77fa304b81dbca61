import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import {
  WORKFLOW_TASK_FIELDS,
  WorkflowErrorNames,
  type WorkflowTaskAction,
} from '../lib/exports/workflow/workflowContract';
import type { PollingConfig, WorkflowLogLevel } from './stackConfig';
import {
  ARCHIVE_RETRY,
  ARCHIVE_RETRY_ERRORS,
  ARCHIVE_TASK_TIMEOUT_SECONDS,
  CREATE_RETRY_ERRORS,
  createRetry,
  executionTimeout,
  FINISHING_POLL_RETRY,
  FINISHING_POLL_RETRY_ERRORS,
  OTHER_TASK_RETRY,
  OTHER_TASK_RETRY_ERRORS,
  POLL_RETRY_ERRORS,
  RECORD_ARCHIVE_FAILURE_TIMEOUT_SECONDS,
  type RetrySchedule,
  statusPollRetry,
  WORKFLOW_TASK_TIMEOUT_SECONDS,
} from './workflowRetries';
import { workflowStateMachine } from './workflowStateMachine';

/** Error names of the workflow's own Fail states. */
export const PollingWorkflowOutcomes = {
  TIMED_OUT: WorkflowErrorNames.POLLING_TIMED_OUT,
  REJECTED: WorkflowErrorNames.CREATE_REJECTED,
  FAILED: 'PollingWorkflowFailed',
  ARCHIVE_FAILED: 'ExportArchiveFailed',
} as const;

/**
 * The workflow's Fail states by what they mean. An `outcome` ends an export the way the business
 * expects some to end (the upstream refused it, its deadline passed): the record says FAILED or
 * ABORTED and why; nobody need be woken. A `crash` means something broke and needs a person.
 */
export const PollingWorkflowFailStates = {
  ExportTimedOut: 'outcome',
  ExportRejected: 'outcome',
  PollingFailed: 'crash',
  ArchiveFailed: 'crash',
} as const satisfies Record<string, 'outcome' | 'crash'>;

export type PollingWorkflowFailState = keyof typeof PollingWorkflowFailStates;

export interface PollingWorkflowProps {
  stateMachineName: string;
  /** Under `/aws/vendedlogs/`, new for every stack instance (the group is retained). */
  logGroupName: string;
  /** Runs the create, poll and timeout-abort tasks (functions/workflow-task.ts). */
  workflowTaskFunction: lambda.IFunction;
  /** Runs the archive tasks (functions/archive.ts). */
  archiveFunction: lambda.IFunction;
  polling: PollingConfig;
  logRetention: logs.RetentionDays;
  /** ERROR: failures only (what the alarms read); ALL: every event, about three per poll. */
  logLevel: WorkflowLogLevel;
}

/**
 * The Standard state machine that creates one export upstream, polls it to completion and
 * archives its files. Its tasks' payloads, outputs and error names are the contract of
 * lib/exports/workflowContract.ts; its retries and timeouts are infra/workflowRetries.ts.
 *
 * CreateUpstreamExport → WaitForFirstPoll → PollExportStatus → ArchiveIfCompleted → ExportFinished.
 * The create task authenticates and creates; while the upstream is throttled, paced or
 * down its Retry on `ExportCreateDeferred` waits (exponential backoff, full jitter, capped)
 * until the deadline, and a refusal ends in the ExportRejected Fail state (the record says
 * FAILED and why). The poll loop is the poll task's own Retry on `ExportStillProcessing`
 * (and, within the export's expected end while someone waits for it, a second one on
 * `ExportFinishing` that polls again within seconds), so each poll costs one state transition instead of the three of a Wait → Task → Choice
 * loop: transitions = create attempts + polls + 2. Past the deadline (or out of attempts)
 * the Catch runs AbortOnTimeout, which aborts the export upstream (or, never sent, just
 * marks it); an export the abort finds COMPLETED is archived like any other, the rest end in
 * the ExportTimedOut Fail state. Anything else ends in PollingFailed; the reconciler repairs
 * the record later. Terminal-state events are published by the handlers, not by extra states.
 */
export class PollingWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly definition: sfn.IChainable;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: PollingWorkflowProps) {
    super(scope, id);
    const { polling } = props;

    // resultPath stays unset on every task (aws-local-stepfunctions mishandles an explicit '$'):
    // the task's output is the next state's input.
    const task = (
      stateId: string,
      action: WorkflowTaskAction,
      fn: lambda.IFunction,
      timeoutSeconds: number,
    ) =>
      new tasks.LambdaInvoke(this, stateId, {
        lambdaFunction: fn,
        payload: sfn.TaskInput.fromObject(taskPayload(action)),
        payloadResponseOnly: true,
        // Every retrier below lists the Lambda service errors itself, with full jitter.
        retryOnServiceExceptions: false,
        taskTimeout: sfn.Timeout.duration(Duration.seconds(timeoutSeconds)),
      });
    const retry = (errors: readonly string[], schedule: RetrySchedule): sfn.RetryProps => ({
      errors: [...errors],
      interval: Duration.seconds(schedule.intervalSeconds),
      maxDelay: Duration.seconds(schedule.maxDelaySeconds),
      backoffRate: schedule.backoffRate,
      jitterStrategy: sfn.JitterType.FULL,
      maxAttempts: schedule.maxAttempts,
    });

    const createExport = task(
      'CreateUpstreamExport',
      'create',
      props.workflowTaskFunction,
      WORKFLOW_TASK_TIMEOUT_SECONDS,
    );
    createExport.addRetry(retry(CREATE_RETRY_ERRORS, createRetry(polling)));

    const waitForFirstPoll = new sfn.Wait(this, 'WaitForFirstPoll', {
      time: sfn.WaitTime.secondsPath('$.firstPollDelaySeconds'),
    });
    const pollStatus = task(
      'PollExportStatus',
      'poll',
      props.workflowTaskFunction,
      WORKFLOW_TASK_TIMEOUT_SECONDS,
    );
    pollStatus.addRetry(retry(POLL_RETRY_ERRORS, statusPollRetry(polling)));
    pollStatus.addRetry(retry(FINISHING_POLL_RETRY_ERRORS, FINISHING_POLL_RETRY));

    const abortOnTimeout = task(
      'AbortOnTimeout',
      'abortOnTimeout',
      props.workflowTaskFunction,
      WORKFLOW_TASK_TIMEOUT_SECONDS,
    );
    abortOnTimeout.addRetry(retry(OTHER_TASK_RETRY_ERRORS, OTHER_TASK_RETRY));

    const exportFinished = new sfn.Succeed(this, 'ExportFinished');
    const exportTimedOut = new sfn.Fail(this, failState('ExportTimedOut'), {
      error: PollingWorkflowOutcomes.TIMED_OUT,
      cause: 'The export did not finish before its deadline and was aborted upstream.',
    });
    const exportRejected = new sfn.Fail(this, failState('ExportRejected'), {
      error: PollingWorkflowOutcomes.REJECTED,
      cause: 'The upstream refused the create; the export is FAILED with its reason.',
    });
    const pollingFailed = new sfn.Fail(this, failState('PollingFailed'), {
      error: PollingWorkflowOutcomes.FAILED,
      cause: 'Polling stopped on an unexpected error; the reconciler repairs the export record.',
    });

    // Catch results go beside the input, which the abort task still needs.
    createExport.addCatch(abortOnTimeout, {
      errors: [WorkflowErrorNames.POLLING_TIMED_OUT, ...CREATE_RETRY_ERRORS],
      resultPath: '$.createError',
    });
    createExport.addCatch(exportRejected, {
      errors: [WorkflowErrorNames.CREATE_REJECTED],
      resultPath: '$.createError',
    });
    createExport.addCatch(pollingFailed, { errors: [sfn.Errors.ALL], resultPath: '$.createError' });
    pollStatus.addCatch(abortOnTimeout, {
      errors: [WorkflowErrorNames.POLLING_TIMED_OUT, ...POLL_RETRY_ERRORS, ...FINISHING_POLL_RETRY_ERRORS],
      resultPath: '$.pollError',
    });
    pollStatus.addCatch(pollingFailed, { errors: [sfn.Errors.ALL], resultPath: '$.pollError' });
    abortOnTimeout.addCatch(pollingFailed, { errors: [sfn.Errors.ALL], resultPath: '$.abortError' });

    // The data outlives the upstream's links: a COMPLETED export's files go to the archive.
    const archiveFiles = task('ArchiveFiles', 'archive', props.archiveFunction, ARCHIVE_TASK_TIMEOUT_SECONDS);
    archiveFiles.addRetry(retry(ARCHIVE_RETRY_ERRORS, ARCHIVE_RETRY));
    // Out of retries (or an unexpected error): the archive is recorded FAILED with the last error.
    const recordArchiveFailure = task(
      'RecordArchiveFailure',
      'archiveFailed',
      props.archiveFunction,
      RECORD_ARCHIVE_FAILURE_TIMEOUT_SECONDS,
    );
    recordArchiveFailure.addRetry(retry(OTHER_TASK_RETRY_ERRORS, OTHER_TASK_RETRY));
    archiveFiles.addCatch(recordArchiveFailure, { errors: [sfn.Errors.ALL], resultPath: '$.archiveError' });
    const archiveFailed = new sfn.Fail(this, failState('ArchiveFailed'), {
      error: PollingWorkflowOutcomes.ARCHIVE_FAILED,
      cause:
        'The export COMPLETED but its files could not be archived; the archive is FAILED with its reason.',
    });
    recordArchiveFailure.addCatch(pollingFailed, { errors: [sfn.Errors.ALL], resultPath: '$.archiveError' });
    recordArchiveFailure.next(archiveFailed);
    const completed = sfn.Condition.stringEquals('$.status', 'COMPLETED');
    const archiveIfCompleted = new sfn.Choice(this, 'ArchiveIfCompleted')
      .when(completed, archiveFiles)
      .otherwise(exportFinished);
    // An export that finished before the timeout abort took keeps its data too.
    abortOnTimeout.next(
      new sfn.Choice(this, 'ArchiveIfCompletedAfterAbort')
        .when(completed, archiveFiles)
        .otherwise(exportTimedOut),
    );
    archiveFiles.next(exportFinished);

    this.definition = createExport.next(waitForFirstPoll).next(pollStatus).next(archiveIfCompleted);

    ({ stateMachine: this.stateMachine, logGroup: this.logGroup } = workflowStateMachine(this, {
      stateMachineName: props.stateMachineName,
      logGroupName: props.logGroupName,
      logRetention: props.logRetention,
      logLevel: props.logLevel,
      definition: this.definition,
      timeoutSeconds: executionTimeout(polling).timeoutSeconds,
      workflow: 'polling',
      errorLogsReason:
        'ERROR logs every failure and every Fail state entered (what the alarms count); ALL adds about three events per poll, billed as vended logs. workflowLogLevel ALL turns it on.',
      taskFunctions: [props.workflowTaskFunction, props.archiveFunction],
    }));
  }
}

/** A Fail state's id, checked against the classification the alarms use. */
function failState(name: PollingWorkflowFailState): string {
  return name;
}

/** A task's payload: its action and the contract's fields, read from the state's input. */
function taskPayload(action: WorkflowTaskAction): Record<string, unknown> {
  return {
    action,
    ...Object.fromEntries(
      Object.entries(WORKFLOW_TASK_FIELDS[action]).map(([name, field]) => [
        name,
        field.type === 'object' ? sfn.JsonPath.objectAt(field.path) : sfn.JsonPath.stringAt(field.path),
      ]),
    ),
  };
}
