import { ArnFormat, Duration, Stack, TimeZone, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ReconcilerEvent } from '../lib/events/reconcilerEvent';
import type { ScheduledExportEvent } from '../lib/events/scheduledExportEvent';
import { iamWildcardResourceFindingId } from './nagFindingIds';
import { scheduleDescription, scheduledExportEventOf } from './scheduledExportEventOf';
import type { SpotConfig } from './stackConfig';

/** A scheduled export that cannot start within this is dropped to the DLQ: the next run covers a fresh window. */
export const EXPORT_SCHEDULE_MAX_EVENT_AGE_HOURS = 1;
export const EXPORT_SCHEDULE_RETRY_ATTEMPTS = 3;
/** A reconciler run older than this is pointless: the next run is due. */
export const RECONCILER_MAX_EVENT_AGE_MINUTES = 5;
export const RECONCILER_RETRY_ATTEMPTS = 2;
/**
 * Scheduler invokes Lambda asynchronously, so a handler error is retried by Lambda, not by
 * the schedule's retry policy; after these retries the event goes to the same DLQ.
 */
export const ASYNC_HANDLER_RETRY_ATTEMPTS = 2;
export const DEAD_LETTER_RETENTION_DAYS = 14;

export interface ExportSchedulesProps {
  spots: readonly SpotConfig[];
  startFunction: lambda.IFunction;
  reconcileFunction: lambda.IFunction;
  reconcileRate: string;
}

/**
 * EventBridge Scheduler schedules: each configured spot's exports (start function) and the
 * reconciler (reconcile function). Each target has a retry policy and an encrypted SQS DLQ that
 * also receives the events the handler itself failed on.
 */
export class ExportSchedules extends Construct {
  readonly exportSchedules: scheduler.Schedule[] = [];
  readonly reconcilerSchedule: scheduler.Schedule;
  /** Only when at least one export schedule is configured. */
  readonly exportDeadLetterQueue: sqs.Queue | undefined;
  readonly reconcilerDeadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: ExportSchedulesProps) {
    super(scope, id);

    const scheduled = props.spots.flatMap((spot) =>
      spot.schedules.map((schedule, index) => ({ spotId: spot.spotId, schedule, index })),
    );
    if (scheduled.length > 0) {
      const deadLetterQueue = this.deadLetterQueue('ExportScheduleDeadLetterQueue');
      const role = this.invokerRole('ExportSchedulerRole', props.startFunction);
      for (const { spotId, schedule, index } of scheduled) {
        // Scheduler substitutes its scheduled-time placeholder on every run.
        const input: ScheduledExportEvent = scheduledExportEventOf(
          spotId,
          schedule,
          scheduler.ContextAttribute.scheduledTime,
        );
        this.exportSchedules.push(
          new scheduler.Schedule(this, `Export-${spotId}-${index}`, {
            description: scheduleDescription(spotId, schedule),
            schedule: scheduler.ScheduleExpression.expression(
              schedule.expression,
              schedule.timeZone === undefined ? undefined : TimeZone.of(schedule.timeZone),
            ),
            timeWindow:
              schedule.flexibleWindowMinutes === undefined
                ? scheduler.TimeWindow.off()
                : scheduler.TimeWindow.flexible(Duration.minutes(schedule.flexibleWindowMinutes)),
            target: new LambdaInvoke(props.startFunction, {
              role,
              input: scheduler.ScheduleTargetInput.fromObject(input),
              deadLetterQueue,
              retryAttempts: EXPORT_SCHEDULE_RETRY_ATTEMPTS,
              maxEventAge: Duration.hours(EXPORT_SCHEDULE_MAX_EVENT_AGE_HOURS),
            }),
          }),
        );
      }
      props.startFunction.configureAsyncInvoke({
        onFailure: new SqsDestination(deadLetterQueue),
        retryAttempts: ASYNC_HANDLER_RETRY_ATTEMPTS,
        maxEventAge: Duration.hours(EXPORT_SCHEDULE_MAX_EVENT_AGE_HOURS),
      });
      this.exportDeadLetterQueue = deadLetterQueue;
    }

    this.reconcilerDeadLetterQueue = this.deadLetterQueue('ReconcilerDeadLetterQueue');
    this.reconcilerSchedule = new scheduler.Schedule(this, 'Reconciler', {
      description: 'Repair active exports whose polling workflow stopped',
      schedule: scheduler.ScheduleExpression.expression(props.reconcileRate),
      timeWindow: scheduler.TimeWindow.off(),
      target: new LambdaInvoke(props.reconcileFunction, {
        role: this.invokerRole('ReconcilerSchedulerRole', props.reconcileFunction),
        input: scheduler.ScheduleTargetInput.fromObject({ source: 'reconciler' } satisfies ReconcilerEvent),
        deadLetterQueue: this.reconcilerDeadLetterQueue,
        retryAttempts: RECONCILER_RETRY_ATTEMPTS,
        maxEventAge: Duration.minutes(RECONCILER_MAX_EVENT_AGE_MINUTES),
      }),
    });
    props.reconcileFunction.configureAsyncInvoke({
      onFailure: new SqsDestination(this.reconcilerDeadLetterQueue),
      retryAttempts: ASYNC_HANDLER_RETRY_ATTEMPTS,
      maxEventAge: Duration.minutes(RECONCILER_MAX_EVENT_AGE_MINUTES),
    });
  }

  allDeadLetterQueues(): sqs.Queue[] {
    return [this.exportDeadLetterQueue, this.reconcilerDeadLetterQueue].filter(
      (queue): queue is sqs.Queue => queue !== undefined,
    );
  }

  private deadLetterQueue(id: string): sqs.Queue {
    const queue = new sqs.Queue(this, id, {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
    });
    Validations.of(queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue (of EventBridge Scheduler and of asynchronous Lambda invocations).',
    });
    return queue;
  }

  /** The role Scheduler assumes, only for schedules of this account's default schedule group. */
  private invokerRole(id: string, target: lambda.IFunction): iam.Role {
    const stack = Stack.of(this);
    const role = new iam.Role(this, id, {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: {
            'aws:SourceAccount': stack.account,
            'aws:SourceArn': stack.formatArn({
              service: 'scheduler',
              resource: 'schedule-group',
              resourceName: 'default',
              arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
            }),
          },
        },
      }),
      description: 'Lets EventBridge Scheduler invoke one function and write to its DLQ',
    });
    Validations.of(role).acknowledge({
      id: iamWildcardResourceFindingId(this, `${target.functionArn}:*`),
      reason:
        'The scheduler target grant (grantInvoke) covers the function and its versions/aliases; only this function is reachable.',
    });
    return role;
  }
}
