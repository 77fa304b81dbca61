import { Duration } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { ExportFunction } from './ExportFunction';
import { type PollingWorkflowFailState, PollingWorkflowFailStates } from './PollingWorkflow';

/** A metric math id: lower-case first letter, letters and digits. */
function metricId(name: string): string {
  return `${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}

/** Alarms look at five-minute windows: quick enough for an export that takes minutes to hours. */
export const ALARM_PERIOD_MINUTES = 5;
const DASHBOARD_WIDGET_WIDTH = 12;
/** Each deployment's metrics counted from logs go to `<this>/<namePrefix>`. */
export const UNEXPECTED_ERRORS_NAMESPACE = 'OpenWebExports';
export const UNEXPECTED_ERRORS_METRIC = 'UnexpectedErrors';
/** What the Lambda runtime writes when a handler dies: timed out, crashed, or failed to load. */
export const LAMBDA_RUNTIME_FAILURE_TERMS = [
  'Task timed out',
  'Runtime.ExitError',
  'Runtime.ImportModuleError',
];

export interface ExportsMonitoringProps {
  dashboardName: string;
  /** Where the metrics counted from logs go: one namespace per deployment keeps deployments' alarms apart. */
  metricNamespace: string;
  stateMachine: sfn.StateMachine;
  /** The erasure workflow: any execution that fails or times out needs a person. */
  erasureStateMachine?: sfn.StateMachine;
  /** The state machine's log group (at ERROR it still holds every Fail state entered). */
  workflowLogGroup: logs.ILogGroup;
  /** The functions that start workflows and count `WorkflowStartsFailed` when they cannot. */
  workflowStarters: readonly ExportFunction[];
  functions: readonly ExportFunction[];
  deadLetterQueues: readonly sqs.Queue[];
  httpApi: apigwv2.HttpApi;
  /** Alarm notifications go to these addresses through an encrypted SNS topic; none: alarms only. */
  alarmEmails: readonly string[];
  /** The reconciler, which measures each spot's freshness every run. */
  reconciler: ExportFunction;
  /** The freshness alarm goes off when at least this many spots are stale at once. */
  freshnessAlarmStaleSpots: number;
}

/** The reconciler writes (lib/exports/fleet/trackFreshness.ts) how many configured spots are stale, every run. */
export const STALE_SPOTS_METRIC = 'StaleSpots';
/** And how far behind each spot is, with its `SpotId`. */
export const HOURS_BEHIND_METRIC = 'HoursBehind';

/** The metric the handlers count (Powertools, lib/exports/startWorkflow.ts) when a workflow could not be started. */
export const WORKFLOW_STARTS_FAILED_METRIC = 'WorkflowStartsFailed';
/** The metric the functions count (lib/exports/coverageWindows.ts) when a coverage window becomes a gap. */
export const COVERAGE_GAPS_METRIC = 'CoverageGaps';
/**
 * The metric the functions count (lib/exports/coverage/publishOrCount.ts) when EventBridge still
 * refuses an export event after its retries: the export goes on, its announcement is lost.
 */
export const EVENTS_NOT_PUBLISHED_METRIC = 'EventsNotPublished';

/**
 * Alarms on what needs a person (crashed or timed-out workflows, workflows that could not be
 * started, anything in a DLQ, function errors and throttles) and one dashboard with those
 * metrics, the workflows' business outcomes and the API's.
 */
export class ExportsMonitoring extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarmTopic: sns.Topic | undefined;

  constructor(scope: Construct, id: string, props: ExportsMonitoringProps) {
    super(scope, id);
    const period = Duration.minutes(ALARM_PERIOD_MINUTES);
    const { stateMachine } = props;

    // A Fail state entered, counted from the workflow's log: which way each failed execution ended.
    const failStates = Object.fromEntries(
      Object.keys(PollingWorkflowFailStates).map((state) => [
        state,
        new logs.MetricFilter(this, `${state}Executions`, {
          logGroup: props.workflowLogGroup,
          filterPattern: logs.FilterPattern.all(
            logs.FilterPattern.stringValue('$.type', '=', 'FailStateEntered'),
            logs.FilterPattern.stringValue('$.details.name', '=', state),
          ),
          metricNamespace: props.metricNamespace,
          metricName: state,
          metricValue: '1',
        }).metric({ period, statistic: 'Sum', label: state }),
      ]),
    ) as Record<PollingWorkflowFailState, cloudwatch.Metric>;
    const executionsFailed = stateMachine.metricFailed({ period, statistic: 'Sum' });
    // A crash is every failed execution that did not end in a business outcome, so a failure outside
    // any Fail state (a runtime error of the definition) pages too, and if the log ever stops
    // naming the Fail states, every failure pages, as it did before the split.
    const outcomeIds = Object.entries(PollingWorkflowFailStates)
      .filter(([, kind]) => kind === 'outcome')
      .map(([state]) => state as PollingWorkflowFailState);
    const crashes = new cloudwatch.MathExpression({
      expression: ['FILL(failed, 0)', ...outcomeIds.map((state) => `FILL(${metricId(state)}, 0)`)].join(
        ' - ',
      ),
      usingMetrics: {
        failed: executionsFailed,
        ...Object.fromEntries(outcomeIds.map((state) => [metricId(state), failStates[state]])),
      },
      period,
      label: 'Crashed executions',
    });
    this.alarmWhenAny(
      'WorkflowCrashes',
      crashes,
      'Polling workflow crashed: it failed other than by an upstream rejection or a deadline abort (PollingFailed, ArchiveFailed, a runtime error)',
    );
    this.alarmWhenAny(
      'WorkflowExecutionsTimedOut',
      stateMachine.metricTimedOut({ period, statistic: 'Sum' }),
      'Polling workflow ran past its state machine timeout',
    );
    if (props.erasureStateMachine !== undefined) {
      // An erasure has no business outcome that fails: a failed or timed-out execution is a crash
      // (the erasure stays RUNNING and the reconciler takes it up again, but a person should look).
      this.alarmWhenAny(
        'ErasureWorkflowFailures',
        new cloudwatch.MathExpression({
          expression: 'FILL(failed, 0) + FILL(timedOut, 0)',
          usingMetrics: {
            failed: props.erasureStateMachine.metricFailed({ period, statistic: 'Sum' }),
            timedOut: props.erasureStateMachine.metricTimedOut({ period, statistic: 'Sum' }),
          },
          period,
          label: 'Failed erasure executions',
        }),
        'Erasure workflow failed or timed out: a slice failed other than by passing trouble; the erasure stays RUNNING and the reconciler takes it up again',
      );
    }
    // On the dashboard only: aborting an export through the API stops its workflow, so an alarm would cry wolf.
    const executionsAborted = stateMachine.metricAborted({ period, statistic: 'Sum' });

    // The export is recorded and the reconciler starts its workflow later; failing again and again
    // (throttling, an outage, a wrong ARN) is worth a person's look.
    const workflowStartsFailed = this.countedFromLogs(
      WORKFLOW_STARTS_FAILED_METRIC,
      props.workflowStarters,
      props.metricNamespace,
      period,
    );
    this.alarmWhenAny(
      'WorkflowStartsFailed',
      workflowStartsFailed,
      'A polling workflow could not be started (the reconciler retries it): throttling, an outage, or a wrong ARN or grant',
    );
    // A window given up on: its hours will not be exported unless someone fills the gap.
    const coverageGaps = this.countedFromLogs(
      COVERAGE_GAPS_METRIC,
      props.functions,
      props.metricNamespace,
      period,
    );
    this.alarmWhenAny(
      'CoverageGaps',
      coverageGaps,
      'A coverage window became a gap: every attempt failed or the upstream refused the request (see the Coverage Gap event and GET /spots/{spotId}/coverage)',
    );
    // An announcement EventBridge refused past its retries: the export went on, but whoever
    // listens for its events (a downstream load, a notification) never heard of it.
    const eventsNotPublished = this.countedFromLogs(
      EVENTS_NOT_PUBLISHED_METRIC,
      props.functions,
      props.metricNamespace,
      period,
    );
    this.alarmWhenAny(
      'EventsNotPublished',
      eventsNotPublished,
      'An event (an export ended, a coverage gap, an archive finished) could not be published to EventBridge after its retries: its listeners missed it; the work itself went on',
    );
    // Data that stops arriving fails nothing: a schedule disabled, a secret deleted, a spot dropped
    // from the configuration. The reconciler measures every spot against its freshness target.
    const staleSpots = this.freshnessMetrics(props.reconciler, props.metricNamespace, period);
    this.alarms.push(
      new cloudwatch.Alarm(this, 'SpotsStale', {
        metric: staleSpots,
        alarmDescription: `At least ${props.freshnessAlarmStaleSpots} spot(s) fell behind their freshness target: data stopped arriving (see the Coverage Stale event and GET /spots)`,
        threshold: props.freshnessAlarmStaleSpots,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        // The reconciler writes the count every run; no data means no run, which its own alarms cover.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    for (const queue of props.deadLetterQueues) {
      this.alarmWhenAny(
        `${queue.node.id}Messages`,
        queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
        `${queue.node.id} holds events that could not be delivered or handled`,
      );
    }
    for (const fn of props.functions) {
      // Not Lambda's Errors metric: the workflow tasks end every unfinished poll, and every create
      // the upstream puts off, with a named error by design. Unexpected failures are what the
      // handlers log at ERROR, and what the Lambda runtime reports when a handler dies.
      this.alarmWhenAny(
        `${fn.node.id}UnexpectedErrors`,
        this.unexpectedErrors(fn, props.metricNamespace).metric({ period, statistic: 'Sum' }),
        `${fn.handlerName} failed unexpectedly (ERROR log lines, timeouts, crashes)`,
      );
      this.alarmWhenAny(
        `${fn.node.id}Throttles`,
        fn.function.metricThrottles({ period, statistic: 'Sum' }),
        `${fn.handlerName} function throttles`,
      );
    }

    if (props.alarmEmails.length > 0) {
      // CloudWatch can publish to an encrypted topic only with a customer-managed key that lets it.
      const key = new kms.Key(this, 'AlarmTopicKey', {
        description: 'Encrypts the openweb-exports alarm topic',
        enableKeyRotation: true,
      });
      key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
      this.alarmTopic = new sns.Topic(this, 'AlarmTopic', { masterKey: key, enforceSSL: true });
      for (const email of props.alarmEmails) this.alarmTopic.addSubscription(new EmailSubscription(email));
      const action = new SnsAction(this.alarmTopic);
      for (const alarm of this.alarms) {
        alarm.addAlarmAction(action);
        alarm.addOkAction(action);
      }
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'Polling workflow executions',
            width: DASHBOARD_WIDGET_WIDTH,
            left: [
              stateMachine.metricStarted({ period, statistic: 'Sum' }),
              stateMachine.metricSucceeded({ period, statistic: 'Sum' }),
              executionsFailed,
              stateMachine.metricTimedOut({ period, statistic: 'Sum' }),
              executionsAborted,
              workflowStartsFailed,
              coverageGaps,
              eventsNotPublished,
            ],
            // How failed executions ended: business outcomes and crashes.
            right: Object.values(failStates),
          }),
          new cloudwatch.GraphWidget({
            title: 'Dead-letter queues (messages visible)',
            width: DASHBOARD_WIDGET_WIDTH,
            left: props.deadLetterQueues.map((queue) =>
              queue.metricApproximateNumberOfMessagesVisible({
                period,
                statistic: 'Maximum',
                label: queue.node.id,
              }),
            ),
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Function errors and throttles',
            width: DASHBOARD_WIDGET_WIDTH,
            left: props.functions.map((fn) =>
              fn.function.metricErrors({ period, statistic: 'Sum', label: `${fn.handlerName} errors` }),
            ),
            right: props.functions.map((fn) =>
              fn.function.metricThrottles({ period, statistic: 'Sum', label: `${fn.handlerName} throttles` }),
            ),
          }),
          new cloudwatch.GraphWidget({
            title: 'Function duration (p99)',
            width: DASHBOARD_WIDGET_WIDTH,
            left: props.functions.map((fn) =>
              fn.function.metricDuration({ period, statistic: 'p99', label: fn.handlerName }),
            ),
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'HTTP API requests and errors',
            width: DASHBOARD_WIDGET_WIDTH,
            left: [
              props.httpApi.metricCount({ period, statistic: 'Sum' }),
              props.httpApi.metricClientError({ period, statistic: 'Sum' }),
              props.httpApi.metricServerError({ period, statistic: 'Sum' }),
            ],
          }),
          new cloudwatch.GraphWidget({
            title: 'HTTP API latency (p99)',
            width: DASHBOARD_WIDGET_WIDTH,
            left: [props.httpApi.metricLatency({ period, statistic: 'p99' })],
          }),
        ],
      ],
    });
  }

  /** One metric per function counting its unexpected failures, from its log group. */
  private unexpectedErrors(fn: ExportFunction, metricNamespace: string): logs.MetricFilter {
    const metric = {
      metricNamespace,
      metricName: `${fn.handlerName}-${UNEXPECTED_ERRORS_METRIC}`,
      metricValue: '1',
    };
    new logs.MetricFilter(this, `${fn.node.id}RuntimeFailures`, {
      logGroup: fn.logGroup,
      filterPattern: logs.FilterPattern.anyTerm(...LAMBDA_RUNTIME_FAILURE_TERMS),
      ...metric,
    });
    return new logs.MetricFilter(this, `${fn.node.id}ErrorLines`, {
      logGroup: fn.logGroup,
      filterPattern: logs.FilterPattern.stringValue('$.level', '=', 'ERROR'),
      ...metric,
    });
  }

  /**
   * A count the handlers write (Powertools' metric log lines), summed across `functions` into one
   * metric without dimensions: metric filters on their log groups.
   */
  private countedFromLogs(
    metricName: string,
    functions: readonly ExportFunction[],
    metricNamespace: string,
    period: Duration,
  ): cloudwatch.Metric {
    for (const fn of functions) {
      // Powertools writes a count as a number, or as a list when one invocation counted it twice.
      new logs.MetricFilter(this, `${fn.node.id}${metricName}`, {
        logGroup: fn.logGroup,
        filterPattern: logs.FilterPattern.numberValue(`$.${metricName}`, '>', 0),
        metricValue: `$.${metricName}`,
        metricNamespace,
        metricName,
      });
      new logs.MetricFilter(this, `${fn.node.id}${metricName}List`, {
        logGroup: fn.logGroup,
        filterPattern: logs.FilterPattern.numberValue(`$.${metricName}[0]`, '>', 0),
        metricValue: '1',
        metricNamespace,
        metricName,
      });
    }
    return new cloudwatch.Metric({ namespace: metricNamespace, metricName, period, statistic: 'Sum' });
  }

  /**
   * The reconciler's freshness levels, from its metric log lines: the stale spots' count (the
   * alarm's metric) and each spot's hours behind, by `SpotId` (the dashboard's).
   */
  private freshnessMetrics(
    reconciler: ExportFunction,
    metricNamespace: string,
    period: Duration,
  ): cloudwatch.Metric {
    new logs.MetricFilter(this, `${reconciler.node.id}${STALE_SPOTS_METRIC}`, {
      logGroup: reconciler.logGroup,
      filterPattern: logs.FilterPattern.numberValue(`$.${STALE_SPOTS_METRIC}`, '>=', 0),
      metricValue: `$.${STALE_SPOTS_METRIC}`,
      metricNamespace,
      metricName: STALE_SPOTS_METRIC,
    });
    new logs.MetricFilter(this, `${reconciler.node.id}${HOURS_BEHIND_METRIC}`, {
      logGroup: reconciler.logGroup,
      filterPattern: logs.FilterPattern.numberValue(`$.${HOURS_BEHIND_METRIC}`, '>=', 0),
      metricValue: `$.${HOURS_BEHIND_METRIC}`,
      metricNamespace,
      metricName: HOURS_BEHIND_METRIC,
      dimensions: { SpotId: '$.SpotId' },
    });
    return new cloudwatch.Metric({
      namespace: metricNamespace,
      metricName: STALE_SPOTS_METRIC,
      period,
      statistic: 'Maximum',
    });
  }

  /** Alarm on one or more occurrences; no data means nothing happened. */
  private alarmWhenAny(id: string, metric: cloudwatch.IMetric, description: string): void {
    this.alarms.push(
      new cloudwatch.Alarm(this, id, {
        metric,
        alarmDescription: description,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }
}
