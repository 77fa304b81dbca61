import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as events from 'aws-cdk-lib/aws-events';
import type { Construct } from 'constructs';
import type { ExportArchiveBucket } from './ExportArchiveBucket';
import type { ExportFunctions } from './ExportFunctions';
import type { ExportSchedules } from './ExportSchedules';
import type { ExportsHttpApi } from './ExportsHttpApi';
import type { ExportsMonitoring } from './ExportsMonitoring';
import type { ExportTable } from './ExportTable';
import { OpenWebExports } from './OpenWebExports';
import type { PollingWorkflow } from './PollingWorkflow';
import type { StackConfig } from './stackConfig';

/** The construct id (and default stack name) of the deployed stack. */
export const DEFAULT_STACK_ID = 'OpenWebExports';
/** CDK leaves an id of `Default` out of logical ids: the resources keep the ids they had before the construct existed. */
const EXPORTS_CONSTRUCT_ID = 'Default';

export interface OpenWebExportsStackProps extends StackProps {
  config: StackConfig;
}

/**
 * The `OpenWebExports` construct alone in a stack, configured from the `openwebExports` context,
 * with its outputs. Resource names start with the stack name.
 */
export class OpenWebExportsStack extends Stack {
  readonly exports: OpenWebExports;
  readonly table: ExportTable;
  readonly archive: ExportArchiveBucket;
  readonly eventBus: events.EventBus;
  readonly functions: ExportFunctions;
  readonly workflow: PollingWorkflow;
  readonly httpApi: ExportsHttpApi;
  readonly schedules: ExportSchedules;
  readonly monitoring: ExportsMonitoring;

  constructor(scope: Construct, id: string, props: OpenWebExportsStackProps) {
    const { config, ...stackProps } = props;
    super(scope, id, stackProps);
    this.exports = new OpenWebExports(this, EXPORTS_CONSTRUCT_ID, { ...config, namePrefix: this.stackName });
    ({
      table: this.table,
      archive: this.archive,
      eventBus: this.eventBus,
      functions: this.functions,
      workflow: this.workflow,
      httpApi: this.httpApi,
      schedules: this.schedules,
      monitoring: this.monitoring,
    } = this.exports);

    new CfnOutput(this, 'ApiUrl', { value: this.exports.apiUrl, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', { value: this.table.table.tableName });
    new CfnOutput(this, 'StateMachineArn', { value: this.workflow.stateMachine.stateMachineArn });
    new CfnOutput(this, 'ArchiveBucketName', {
      value: this.archive.bucket.bucketName,
      description: 'Where finished exports are archived (kept when the stack is deleted)',
    });
    new CfnOutput(this, 'LakeDatabaseName', {
      value: this.exports.lake.database.ref,
      description: "The Glue database of the archive's comment_rows table and comments view",
    });
    new CfnOutput(this, 'AthenaWorkGroupName', {
      value: this.exports.lake.workGroup.ref,
      description:
        "Where 'openweb-exports query --workgroup' runs (results encrypted, expiring, bytes limited)",
    });
    new CfnOutput(this, 'LakeQueryPolicyArn', {
      value: this.exports.lake.queryPolicy.managedPolicyArn,
      description:
        'Attach to the roles that run queries: the workgroup, the catalog and the files, nothing more',
    });
    new CfnOutput(this, 'EventBusName', { value: this.eventBus.eventBusName });
    new CfnOutput(this, 'DashboardName', { value: this.exports.namePrefix });
  }
}
