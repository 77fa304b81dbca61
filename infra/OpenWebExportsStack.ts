import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ExportArchiveBucket } from './ExportArchiveBucket';
import { ExportFunctions } from './ExportFunctions';
import { ExportSchedules } from './ExportSchedules';
import { ExportsHttpApi } from './ExportsHttpApi';
import { ExportsMonitoring } from './ExportsMonitoring';
import { ExportTable } from './ExportTable';
import { PollingWorkflow } from './PollingWorkflow';
import { pollingStateMachineIdentity } from './pollingStateMachineIdentity';
import type { StackConfig } from './stackConfig';

/** The construct id (and default stack name) of the deployed stack. */
export const DEFAULT_STACK_ID = 'OpenWebExports';

export interface OpenWebExportsStackProps extends StackProps {
  config: StackConfig;
}

/**
 * Everything openweb-exports runs on in AWS: the table, the archive bucket, the functions, the HTTP API,
 * the polling workflow, the export event bus, the schedules, and alarms with a dashboard.
 */
export class OpenWebExportsStack extends Stack {
  readonly table: ExportTable;
  readonly archive: ExportArchiveBucket;
  readonly eventBus: events.EventBus;
  readonly functions: ExportFunctions;
  readonly workflow: PollingWorkflow;
  readonly httpApi: ExportsHttpApi;
  readonly schedules: ExportSchedules;
  readonly monitoring: ExportsMonitoring;

  constructor(scope: Construct, id: string, props: OpenWebExportsStackProps) {
    super(scope, id, props);
    const { config } = props;
    // Config accepts only the values CloudWatch Logs accepts, which are RetentionDays' values.
    const logRetention = config.logRetentionDays as logs.RetentionDays;

    this.table = new ExportTable(this, 'ExportTable');
    // A bus of its own: consumers subscribe to export events without sharing the account's default bus,
    // and the functions' PutEvents grant names this bus only.
    this.eventBus = new events.EventBus(this, 'ExportEvents', { eventBusName: `${this.stackName}-exports` });

    this.archive = new ExportArchiveBucket(this, 'Archive', { config: config.archive });
    const workflowIdentity = pollingStateMachineIdentity(this);
    this.functions = new ExportFunctions(this, 'Functions', {
      config,
      archive: this.archive,
      table: this.table,
      eventBus: this.eventBus,
      stateMachineArn: workflowIdentity.stateMachineArn,
      executionsArn: workflowIdentity.executionsArn,
      logRetention,
    });
    this.workflow = new PollingWorkflow(this, 'PollingWorkflow', {
      stateMachineName: workflowIdentity.name,
      checkStatusFunction: this.functions.checkStatus.function,
      abortFunction: this.functions.abort.function,
      archiveFunction: this.functions.archive.function,
      polling: config.polling,
      logRetention,
    });
    this.httpApi = new ExportsHttpApi(this, 'HttpApi', {
      functionFor: (handler) => this.functions.byHandler(handler),
      auth: config.auth,
      throttlingRateLimit: config.api.throttlingRateLimit,
      throttlingBurstLimit: config.api.throttlingBurstLimit,
      logRetention,
    });
    this.schedules = new ExportSchedules(this, 'Schedules', {
      spots: config.spots,
      startFunction: this.functions.start.function,
      checkStatusFunction: this.functions.checkStatus.function,
      reconcileRate: config.polling.reconcileRate,
    });
    this.monitoring = new ExportsMonitoring(this, 'Monitoring', {
      dashboardName: this.stackName,
      stateMachine: this.workflow.stateMachine,
      functions: this.functions.all(),
      deadLetterQueues: this.schedules.allDeadLetterQueues(),
      httpApi: this.httpApi.api,
      alarmEmails: config.alarmEmail,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', { value: this.table.table.tableName });
    new CfnOutput(this, 'StateMachineArn', { value: this.workflow.stateMachine.stateMachineArn });
    new CfnOutput(this, 'ArchiveBucketName', {
      value: this.archive.bucket.bucketName,
      description: 'Where finished exports are archived (kept when the stack is deleted)',
    });
    new CfnOutput(this, 'EventBusName', { value: this.eventBus.eventBusName });
    new CfnOutput(this, 'DashboardName', { value: this.stackName });
  }
}
