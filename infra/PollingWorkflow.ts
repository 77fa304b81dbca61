import { Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import {
  type ArchiveFailedTaskInput,
  type ArchiveTaskInput,
  type CreateTaskInput,
  PollingWorkflowErrors,
  type PollTaskInput,
  type TimeoutAbortTaskInput,
} from '../lib/exports/pollingWorkflowContract';
import { iamWildcardResourceFindingId } from './nagFindingIds';
import type { PollingConfig } from './stackConfig';
import {
  ARCHIVE_RETRY_MAX_ATTEMPTS,
  CREATE_RETRY_BACKOFF_RATE,
  CREATE_RETRY_INTERVAL_SECONDS,
  createRetryMaxAttempts,
  createRetryMaxDelaySeconds,
  STATUS_POLL_BACKOFF_RATE,
  statusPollMaxAttempts,
  TRANSIENT_RETRY_MAX_ATTEMPTS,
} from './statusPollRetry';

export { ARCHIVE_RETRY_MAX_ATTEMPTS, TRANSIENT_RETRY_MAX_ATTEMPTS };

/** The Lambda service's own passing failures, retried like the task's transient errors. */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
] as const;

/** Failures worth retrying on their own short schedule: the upstream or Lambda hiccupped. */
export const TRANSIENT_TASK_ERRORS = [
  PollingWorkflowErrors.UPSTREAM_UNAVAILABLE,
  ...LAMBDA_SERVICE_ERRORS,
] as const;

/**
 * What the poll task's one retrier repeats: "still processing", and transient trouble as a poll
 * that learned nothing. One retrier means one budget, bounded by the deadline, so no number of
 * hiccups over a long export exhausts it.
 */
export const POLL_RETRY_ERRORS = [PollingWorkflowErrors.STILL_PROCESSING, ...TRANSIENT_TASK_ERRORS] as const;

/** What the create task's retrier repeats: a create that could not be sent yet, and Lambda hiccups. */
export const CREATE_RETRY_ERRORS = [PollingWorkflowErrors.CREATE_DEFERRED, ...LAMBDA_SERVICE_ERRORS] as const;
export const TRANSIENT_RETRY_INTERVAL_SECONDS = 5;
export const TRANSIENT_RETRY_MAX_DELAY_SECONDS = 120;
/** What the archive task's retrier repeats: a download or storage hiccup, and Lambda's own. */
export const ARCHIVE_RETRY_ERRORS = [
  PollingWorkflowErrors.ARCHIVE_RETRY,
  ...LAMBDA_SERVICE_ERRORS,
  'States.Timeout',
] as const;
export const ARCHIVE_RETRY_INTERVAL_SECONDS = 10;
export const ARCHIVE_RETRY_MAX_DELAY_SECONDS = 300;
const TRANSIENT_RETRY_BACKOFF_RATE = 2;

/**
 * The execution outlives the export deadline by one maximal poll delay (the poll that
 * notices the deadline) plus this, for the abort task and its retries.
 */
export const STATE_MACHINE_TIMEOUT_MARGIN_SECONDS = 15 * 60;

/** Error names of the workflow's own Fail states. */
export const PollingWorkflowOutcomes = {
  TIMED_OUT: PollingWorkflowErrors.POLLING_TIMED_OUT,
  REJECTED: PollingWorkflowErrors.CREATE_REJECTED,
  FAILED: 'PollingWorkflowFailed',
  ARCHIVE_FAILED: 'ExportArchiveFailed',
} as const;

export interface PollingWorkflowProps {
  stateMachineName: string;
  checkStatusFunction: lambda.IFunction;
  abortFunction: lambda.IFunction;
  archiveFunction: lambda.IFunction;
  polling: PollingConfig;
  logRetention: logs.RetentionDays;
}

/**
 * The Standard state machine that creates one export upstream and polls it to completion.
 *
 * CreateUpstreamExport → WaitForFirstPoll → PollExportStatus → ExportFinished.
 * The create task authenticates and creates; while the upstream is throttled, paced or
 * down its Retry on `ExportCreateDeferred` waits (exponential backoff, full jitter, capped)
 * until the deadline, and a refusal ends in the ExportRejected Fail state (the record says
 * FAILED and why). The poll loop is the poll task's own Retry on `ExportStillProcessing`,
 * so each poll costs one state transition instead of the three of a Wait → Task → Choice
 * loop: transitions = create attempts + polls + 2. Past the deadline (or out of attempts)
 * the Catch runs AbortOnTimeout, which aborts the export upstream (or, never sent, just
 * marks it) and ends in the ExportTimedOut Fail state: the export produced no files, and the
 * failed execution shows it. Anything else ends in PollingFailed; the reconciler repairs the
 * record later. Terminal-state events are published by the handlers, not by extra states.
 */
export class PollingWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly definition: sfn.IChainable;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: PollingWorkflowProps) {
    super(scope, id);
    const { polling } = props;

    const createInput: Record<keyof CreateTaskInput, unknown> = {
      action: 'create',
      spotId: sfn.JsonPath.stringAt('$.spotId'),
      exportId: sfn.JsonPath.stringAt('$.exportId'),
      deadline: sfn.JsonPath.stringAt('$.deadline'),
    };
    const pollInput: Record<keyof PollTaskInput, unknown> = {
      action: 'poll',
      spotId: sfn.JsonPath.stringAt('$.spotId'),
      exportId: sfn.JsonPath.stringAt('$.exportId'),
      deadline: sfn.JsonPath.stringAt('$.deadline'),
    };
    const abortInput: Record<keyof TimeoutAbortTaskInput, unknown> = {
      action: 'abortOnTimeout',
      spotId: sfn.JsonPath.stringAt('$.spotId'),
      exportId: sfn.JsonPath.stringAt('$.exportId'),
    };
    const transientRetry: sfn.RetryProps = {
      errors: [...TRANSIENT_TASK_ERRORS],
      interval: Duration.seconds(TRANSIENT_RETRY_INTERVAL_SECONDS),
      maxDelay: Duration.seconds(TRANSIENT_RETRY_MAX_DELAY_SECONDS),
      backoffRate: TRANSIENT_RETRY_BACKOFF_RATE,
      jitterStrategy: sfn.JitterType.FULL,
      maxAttempts: TRANSIENT_RETRY_MAX_ATTEMPTS,
    };

    // resultPath stays unset: the task's output (ids, deadline, learned first wait) is the next state's input.
    const createExport = new tasks.LambdaInvoke(this, 'CreateUpstreamExport', {
      lambdaFunction: props.checkStatusFunction,
      payload: sfn.TaskInput.fromObject(createInput),
      payloadResponseOnly: true,
      retryOnServiceExceptions: false,
    });
    createExport.addRetry({
      errors: [...CREATE_RETRY_ERRORS],
      interval: Duration.seconds(CREATE_RETRY_INTERVAL_SECONDS),
      maxDelay: Duration.seconds(createRetryMaxDelaySeconds(polling)),
      backoffRate: CREATE_RETRY_BACKOFF_RATE,
      jitterStrategy: sfn.JitterType.FULL,
      maxAttempts: createRetryMaxAttempts(polling),
    });

    const waitForFirstPoll = new sfn.Wait(this, 'WaitForFirstPoll', {
      time: sfn.WaitTime.secondsPath('$.firstPollDelaySeconds'),
    });
    // resultPath stays unset: aws-local-stepfunctions mishandles an explicit '$'.
    const pollStatus = new tasks.LambdaInvoke(this, 'PollExportStatus', {
      lambdaFunction: props.checkStatusFunction,
      payload: sfn.TaskInput.fromObject(pollInput),
      payloadResponseOnly: true,
      // The transient retrier below covers the Lambda service errors with full jitter.
      retryOnServiceExceptions: false,
    });
    pollStatus.addRetry({
      errors: [...POLL_RETRY_ERRORS],
      interval: Duration.seconds(polling.statusPollIntervalSeconds),
      maxDelay: Duration.seconds(polling.statusPollMaxDelaySeconds),
      backoffRate: STATUS_POLL_BACKOFF_RATE,
      jitterStrategy: sfn.JitterType.FULL,
      maxAttempts: statusPollMaxAttempts(polling),
    });

    const abortOnTimeout = new tasks.LambdaInvoke(this, 'AbortOnTimeout', {
      lambdaFunction: props.abortFunction,
      payload: sfn.TaskInput.fromObject(abortInput),
      payloadResponseOnly: true,
      retryOnServiceExceptions: false,
    });
    abortOnTimeout.addRetry(transientRetry);

    const exportFinished = new sfn.Succeed(this, 'ExportFinished');
    const exportTimedOut = new sfn.Fail(this, 'ExportTimedOut', {
      error: PollingWorkflowOutcomes.TIMED_OUT,
      cause: 'The export did not finish before its deadline and was aborted upstream.',
    });
    const exportRejected = new sfn.Fail(this, 'ExportRejected', {
      error: PollingWorkflowOutcomes.REJECTED,
      cause: 'The upstream refused the create; the export is FAILED with its reason.',
    });
    const pollingFailed = new sfn.Fail(this, 'PollingFailed', {
      error: PollingWorkflowOutcomes.FAILED,
      cause: 'Polling stopped on an unexpected error; the reconciler repairs the export record.',
    });

    // Catch results go beside the input, which the abort task still needs.
    createExport.addCatch(abortOnTimeout, {
      errors: [PollingWorkflowErrors.POLLING_TIMED_OUT, ...CREATE_RETRY_ERRORS],
      resultPath: '$.createError',
    });
    createExport.addCatch(exportRejected, {
      errors: [PollingWorkflowErrors.CREATE_REJECTED],
      resultPath: '$.createError',
    });
    createExport.addCatch(pollingFailed, { errors: [sfn.Errors.ALL], resultPath: '$.createError' });
    pollStatus.addCatch(abortOnTimeout, {
      errors: [PollingWorkflowErrors.POLLING_TIMED_OUT, ...POLL_RETRY_ERRORS],
      resultPath: '$.pollError',
    });
    pollStatus.addCatch(pollingFailed, { errors: [sfn.Errors.ALL], resultPath: '$.pollError' });
    abortOnTimeout.addCatch(pollingFailed, { errors: [sfn.Errors.ALL], resultPath: '$.abortError' });
    abortOnTimeout.next(exportTimedOut);

    // The data outlives the upstream's links: a COMPLETED export's files go to the archive.
    const archiveFiles = new tasks.LambdaInvoke(this, 'ArchiveFiles', {
      lambdaFunction: props.archiveFunction,
      payload: sfn.TaskInput.fromObject({
        action: 'archive',
        spotId: sfn.JsonPath.stringAt('$.spotId'),
        exportId: sfn.JsonPath.stringAt('$.exportId'),
      } satisfies Record<keyof ArchiveTaskInput, unknown>),
      payloadResponseOnly: true,
      retryOnServiceExceptions: false,
    });
    archiveFiles.addRetry({
      errors: [...ARCHIVE_RETRY_ERRORS],
      interval: Duration.seconds(ARCHIVE_RETRY_INTERVAL_SECONDS),
      maxDelay: Duration.seconds(ARCHIVE_RETRY_MAX_DELAY_SECONDS),
      backoffRate: TRANSIENT_RETRY_BACKOFF_RATE,
      jitterStrategy: sfn.JitterType.FULL,
      maxAttempts: ARCHIVE_RETRY_MAX_ATTEMPTS,
    });
    // Out of retries (or an unexpected error): the archive is recorded FAILED with the last error.
    const recordArchiveFailure = new tasks.LambdaInvoke(this, 'RecordArchiveFailure', {
      lambdaFunction: props.archiveFunction,
      payload: sfn.TaskInput.fromObject({
        action: 'archiveFailed',
        spotId: sfn.JsonPath.stringAt('$.spotId'),
        exportId: sfn.JsonPath.stringAt('$.exportId'),
        error: sfn.JsonPath.objectAt('$.archiveError'),
      } satisfies Record<keyof ArchiveFailedTaskInput, unknown>),
      payloadResponseOnly: true,
      retryOnServiceExceptions: false,
    });
    recordArchiveFailure.addRetry(transientRetry);
    archiveFiles.addCatch(recordArchiveFailure, { errors: [sfn.Errors.ALL], resultPath: '$.archiveError' });
    const archiveFailed = new sfn.Fail(this, 'ArchiveFailed', {
      error: PollingWorkflowOutcomes.ARCHIVE_FAILED,
      cause:
        'The export COMPLETED but its files could not be archived; the archive is FAILED with its reason.',
    });
    recordArchiveFailure.addCatch(pollingFailed, { errors: [sfn.Errors.ALL], resultPath: '$.archiveError' });
    recordArchiveFailure.next(archiveFailed);
    const archiveIfCompleted = new sfn.Choice(this, 'ArchiveIfCompleted')
      .when(sfn.Condition.stringEquals('$.status', 'COMPLETED'), archiveFiles)
      .otherwise(exportFinished);
    archiveFiles.next(exportFinished);

    this.definition = createExport.next(waitForFirstPoll).next(pollStatus).next(archiveIfCompleted);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      // The vended-logs prefix keeps CloudWatch Logs' resource policy from growing per state machine.
      // The stack id's UUID makes the name new for every stack instance: the group is retained
      // with its logs, and a fixed name would make creating the stack again fail ("already exists").
      logGroupName: Fn.join('', [
        `/aws/vendedlogs/states/${props.stateMachineName}-`,
        Fn.select(2, Fn.split('/', Stack.of(this).stackId)),
      ]),
      retention: props.logRetention,
    });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineName: props.stateMachineName,
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromChainable(this.definition),
      timeout: Duration.seconds(
        polling.exportDeadlineSeconds +
          polling.statusPollMaxDelaySeconds +
          STATE_MACHINE_TIMEOUT_MARGIN_SECONDS,
      ),
      tracingEnabled: true,
      // Task inputs and outputs name exports (never their links); log events, not data, all the same.
      logs: { destination: this.logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });

    const role = this.stateMachine.role;
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Logging to CloudWatch Logs (logs:*LogDelivery, PutResourcePolicy, Describe*) and X-Ray tracing do not support resource-level permissions.',
    });
    for (const fn of [props.checkStatusFunction, props.abortFunction, props.archiveFunction]) {
      Validations.of(role).acknowledge({
        id: iamWildcardResourceFindingId(this, `${fn.functionArn}:*`),
        reason:
          'LambdaInvoke grants invoking the function and its versions/aliases; only this function is reachable.',
      });
    }
  }
}
