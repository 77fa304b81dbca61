import { Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { HandlerNames } from '../lib/http/routeTable';
import { lakeDatabaseNameFor } from '../lib/lake/lakeDatabaseName';
import { ErasureWorkflow } from './ErasureWorkflow';
import { ExportArchiveBucket } from './ExportArchiveBucket';
import { ExportFunctions } from './ExportFunctions';
import { ExportSchedules } from './ExportSchedules';
import { ExportsHttpApi } from './ExportsHttpApi';
import { ExportsLake } from './ExportsLake';
import { ExportsMonitoring, UNEXPECTED_ERRORS_NAMESPACE } from './ExportsMonitoring';
import { ExportTable } from './ExportTable';
import { PollingWorkflow } from './PollingWorkflow';
import { pollingStateMachineIdentity } from './pollingStateMachineIdentity';
import { parseStackConfig, type StackConfig, type StackConfigInput } from './stackConfig';

/**
 * The configuration of an openweb-exports deployment: the same keys, validation and defaults as
 * the `openwebExports` context of `cdk.json`, derived from the settings table. Every key, its
 * default, range and unit: docs/configuration.md.
 */
export type OpenWebExportsConfigProps = StackConfigInput;

export interface OpenWebExportsProps extends OpenWebExportsConfigProps {
  /**
   * Prefix of the names the deployment gives AWS resources (the state machine, the event bus,
   * the dashboard, which adds the region): unique per account and region. Default `<stack name>-<construct id>`.
   */
  namePrefix?: string;
}

/**
 * Everything openweb-exports runs on in AWS: the table, the archive bucket with its catalog table, view and
 * Athena workgroup, the functions (functions/registry.ts), the HTTP API, the polling and erasure workflows, the export event bus, the
 * schedules, and alarms with a dashboard. Place it in any stack; `OpenWebExportsStack` is this
 * construct alone in a stack configured from context.
 */
export class OpenWebExports extends Construct {
  /** The validated configuration, defaults filled in. */
  readonly config: StackConfig;
  readonly namePrefix: string;
  readonly table: ExportTable;
  readonly archive: ExportArchiveBucket;
  readonly lake: ExportsLake;
  readonly eventBus: events.EventBus;
  readonly functions: ExportFunctions;
  readonly workflow: PollingWorkflow;
  readonly erasureWorkflow: ErasureWorkflow;
  readonly httpApi: ExportsHttpApi;
  readonly schedules: ExportSchedules;
  readonly monitoring: ExportsMonitoring;

  /** @throws StackConfigError naming each invalid prop */
  constructor(scope: Construct, id: string, props: OpenWebExportsProps = {}) {
    const { namePrefix, ...configProps } = props;
    // Validated before the construct joins the tree, so invalid props leave nothing behind.
    const parsed = parseStackConfig(configProps, 'props');
    super(scope, id);
    this.namePrefix = namePrefix ?? `${Stack.of(this).stackName}-${id}`;
    // One database per deployment unless configured: a fixed name would collide with a second
    // stack in the same account and region, whose creation would then fail and roll back.
    const catalogDatabaseName = parsed.archive.catalogDatabaseName ?? lakeDatabaseNameFor(this.namePrefix);
    const config: StackConfig = { ...parsed, archive: { ...parsed.archive, catalogDatabaseName } };
    this.config = config;
    // Config accepts only the values CloudWatch Logs accepts, which are RetentionDays' values.
    const logRetention = config.logRetentionDays as logs.RetentionDays;

    this.table = new ExportTable(this, 'ExportTable', { existingTableName: config.existingTableName });
    // A bus of its own: consumers subscribe to export events without sharing the account's default bus,
    // and the functions' PutEvents grant names this bus only.
    this.eventBus = new events.EventBus(this, 'ExportEvents', { eventBusName: `${this.namePrefix}-exports` });

    this.archive = new ExportArchiveBucket(this, 'Archive', { config: config.archive });
    this.lake = new ExportsLake(this, 'Lake', {
      bucket: this.archive.bucket,
      encryptionKey: this.archive.encryptionKey,
      databaseName: catalogDatabaseName,
      workGroupName: this.namePrefix,
      maxScannedGigabytesPerQuery: config.archive.maxScannedGigabytesPerQuery,
      queryResultsExpireAfterDays: config.archive.queryResultsExpireAfterDays,
    });
    const workflowIdentity = pollingStateMachineIdentity(Stack.of(this), this.namePrefix);
    const erasureIdentity = pollingStateMachineIdentity(Stack.of(this), this.namePrefix, 'ExportErasure');
    this.functions = new ExportFunctions(this, 'Functions', {
      config,
      archive: this.archive,
      lake: this.lake,
      table: this.table,
      eventBus: this.eventBus,
      stateMachineArn: workflowIdentity.stateMachineArn,
      executionsArn: workflowIdentity.executionsArn,
      erasureStateMachineArn: erasureIdentity.stateMachineArn,
      logRetention,
    });
    this.workflow = new PollingWorkflow(this, 'PollingWorkflow', {
      stateMachineName: workflowIdentity.name,
      logGroupName: workflowIdentity.logGroupName,
      workflowTaskFunction: this.functions.byHandler(HandlerNames.WORKFLOW_TASK).function,
      archiveFunction: this.functions.byHandler(HandlerNames.ARCHIVE).function,
      polling: config.polling,
      logRetention,
      logLevel: config.workflowLogLevel,
    });
    this.erasureWorkflow = new ErasureWorkflow(this, 'ErasureWorkflow', {
      stateMachineName: erasureIdentity.name,
      logGroupName: erasureIdentity.logGroupName,
      erasureTaskFunction: this.functions.byHandler(HandlerNames.ERASURE_TASK).function,
      logRetention,
      logLevel: config.workflowLogLevel,
    });
    this.httpApi = new ExportsHttpApi(this, 'HttpApi', {
      functionFor: (handler) => this.functions.byHandler(handler),
      auth: config.auth,
      throttlingRateLimit: config.api.throttlingRateLimit,
      throttlingBurstLimit: config.api.throttlingBurstLimit,
      logRetention,
      namePrefix: this.namePrefix,
    });
    this.schedules = new ExportSchedules(this, 'Schedules', {
      spots: config.spots,
      startFunction: this.functions.byHandler(HandlerNames.START).function,
      reconcileFunction: this.functions.byHandler(HandlerNames.RECONCILE).function,
      reconcileRate: config.polling.reconcileRate,
    });
    this.monitoring = new ExportsMonitoring(this, 'Monitoring', {
      // Dashboards are global per account: the region keeps a second region's deployment from colliding.
      dashboardName: `${this.namePrefix}-${Stack.of(this).region}`,
      // Metric names are per account and region: a namespace of its own keeps two deployments' alarms apart.
      metricNamespace: `${UNEXPECTED_ERRORS_NAMESPACE}/${this.namePrefix}`,
      stateMachine: this.workflow.stateMachine,
      erasureStateMachine: this.erasureWorkflow.stateMachine,
      workflowLogGroup: this.workflow.logGroup,
      workflowStarters: [HandlerNames.START, HandlerNames.RECONCILE].map((name) =>
        this.functions.byHandler(name),
      ),
      functions: this.functions.all(),
      deadLetterQueues: this.schedules.allDeadLetterQueues(),
      httpApi: this.httpApi.api,
      alarmEmails: config.alarmEmail,
      reconciler: this.functions.byHandler(HandlerNames.RECONCILE),
      freshnessAlarmStaleSpots: config.coverage.freshnessAlarmStaleSpots,
    });
  }

  /** Base URL of the HTTP API. */
  get apiUrl(): string {
    return this.httpApi.url;
  }
}
