import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import {
  ERASURE_TASK_OUTCOME_PATH,
  ERASURE_TASK_PASSES_PATH,
  ERASURE_WAIT_SECONDS,
  ERASURE_WORKFLOW_MAX_PASSES,
} from '../lib/exports/erasure/erasureWorkflowContract';
import { ERASURE_RETRY_ERROR_NAME } from '../lib/exports/erasure/errors';
import type { WorkflowLogLevel } from './stackConfig';
import {
  ARCHIVE_RETRY,
  ARCHIVE_TASK_TIMEOUT_SECONDS,
  LAMBDA_SERVICE_ERRORS,
  TASK_TIMEOUT_ERRORS,
  worstCaseTaskSeconds,
} from './workflowRetries';
import { workflowStateMachine } from './workflowStateMachine';

/** The erasure workflow's Fail state: the task failed other than by passing trouble; the erasure stays RUNNING for the reconciler. */
export const ERASURE_WORKFLOW_FAILED = 'ErasureWorkflowFailed';

/** What the erasure task retries: its own passing trouble, Lambda's, a timeout. */
export const ERASURE_RETRY_ERRORS = [
  ERASURE_RETRY_ERROR_NAME,
  ...LAMBDA_SERVICE_ERRORS,
  ...TASK_TIMEOUT_ERRORS,
] as const;

/**
 * The longest an execution may run: every pass a slice and its retries, and a wait. An execution
 * that would run longer hands over (ErasureHandedOver) well before this.
 */
export const ERASURE_EXECUTION_TIMEOUT_SECONDS =
  ERASURE_WORKFLOW_MAX_PASSES *
  (worstCaseTaskSeconds(ARCHIVE_RETRY, ARCHIVE_TASK_TIMEOUT_SECONDS) + ERASURE_WAIT_SECONDS);

export interface ErasureWorkflowProps {
  stateMachineName: string;
  /** Under `/aws/vendedlogs/`, new for every stack instance (the group is retained). */
  logGroupName: string;
  /** Runs the erasure's slices (functions/erasure-task.ts). */
  erasureTaskFunction: lambda.IFunction;
  logRetention: logs.RetentionDays;
  logLevel: WorkflowLogLevel;
}

/**
 * The Standard state machine that runs one erasure to its end, a slice at a time
 * (lib/exports/erasure/erasureWorkflowContract.ts): EraseSlice → ErasureFinishedOrNot: finished →
 * ErasureFinished; more → EraseSlice at once; busy or waiting (another run holds it, an archive
 * in progress) → WaitBeforeNextSlice → EraseSlice. Bounded: after ERASURE_WORKFLOW_MAX_PASSES
 * slices it ends (ErasureHandedOver) and the reconciler takes the erasure up when its lease lapses.
 * A crash or a timeout of a slice is retried and resumes where the record says; a slice that fails
 * otherwise ends in ErasureFailed (an alarm), the erasure still RUNNING for the reconciler.
 */
export class ErasureWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ErasureWorkflowProps) {
    super(scope, id);
    // resultPath stays unset (aws-local-stepfunctions mishandles an explicit '$'): the task's
    // output, the erasure and its pass count, is the next state's input.
    const eraseSlice = new tasks.LambdaInvoke(this, 'EraseSlice', {
      lambdaFunction: props.erasureTaskFunction,
      payload: sfn.TaskInput.fromObject({
        spotId: sfn.JsonPath.stringAt('$.spotId'),
        erasureId: sfn.JsonPath.stringAt('$.erasureId'),
        runId: sfn.JsonPath.stringAt('$.runId'),
        passes: sfn.JsonPath.numberAt('$.passes'),
      }),
      payloadResponseOnly: true,
      retryOnServiceExceptions: false,
      taskTimeout: sfn.Timeout.duration(Duration.seconds(ARCHIVE_TASK_TIMEOUT_SECONDS)),
    });
    eraseSlice.addRetry({
      errors: [...ERASURE_RETRY_ERRORS],
      interval: Duration.seconds(ARCHIVE_RETRY.intervalSeconds),
      maxDelay: Duration.seconds(ARCHIVE_RETRY.maxDelaySeconds),
      backoffRate: ARCHIVE_RETRY.backoffRate,
      jitterStrategy: sfn.JitterType.FULL,
      maxAttempts: ARCHIVE_RETRY.maxAttempts,
    });
    const failed = new sfn.Fail(this, 'ErasureFailed', {
      error: ERASURE_WORKFLOW_FAILED,
      cause: 'A slice of the erasure failed; the erasure stays RUNNING and the reconciler takes it up again.',
    });
    eraseSlice.addCatch(failed, { errors: [sfn.Errors.ALL], resultPath: '$.eraseError' });

    const waitBeforeNextSlice = new sfn.Wait(this, 'WaitBeforeNextSlice', {
      time: sfn.WaitTime.duration(Duration.seconds(ERASURE_WAIT_SECONDS)),
    });
    waitBeforeNextSlice.next(eraseSlice);
    const finishedOrNot = new sfn.Choice(this, 'ErasureFinishedOrNot')
      .when(
        sfn.Condition.stringEquals(ERASURE_TASK_OUTCOME_PATH, 'finished'),
        new sfn.Succeed(this, 'ErasureFinished'),
      )
      .when(
        sfn.Condition.numberGreaterThanEquals(ERASURE_TASK_PASSES_PATH, ERASURE_WORKFLOW_MAX_PASSES),
        new sfn.Succeed(this, 'ErasureHandedOver', {
          comment: 'Its lease lapses and the reconciler starts the next execution.',
        }),
      )
      .when(sfn.Condition.stringEquals(ERASURE_TASK_OUTCOME_PATH, 'more'), eraseSlice)
      .otherwise(waitBeforeNextSlice);
    eraseSlice.next(finishedOrNot);

    ({ stateMachine: this.stateMachine, logGroup: this.logGroup } = workflowStateMachine(this, {
      stateMachineName: props.stateMachineName,
      logGroupName: props.logGroupName,
      logRetention: props.logRetention,
      logLevel: props.logLevel,
      definition: eraseSlice,
      timeoutSeconds: ERASURE_EXECUTION_TIMEOUT_SECONDS,
      workflow: 'erasure',
      errorLogsReason:
        'ERROR logs every failure (what the alarm counts); workflowLogLevel ALL logs every state, as for the polling workflow.',
      taskFunctions: [props.erasureTaskFunction],
    }));
  }
}
