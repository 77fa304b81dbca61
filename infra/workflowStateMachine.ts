import { type CfnResource, Duration, Validations } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { WORKFLOW_METADATA_KEY, type WorkflowKind } from './extractStateMachine';
import { iamWildcardResourceFindingId } from './nagFindingIds';
import type { WorkflowLogLevel } from './stackConfig';

export interface WorkflowStateMachineProps {
  stateMachineName: string;
  /** Under the vended-logs prefix, so CloudWatch Logs' resource policy does not grow per state machine. */
  logGroupName: string;
  logRetention: logs.RetentionDays;
  logLevel: WorkflowLogLevel;
  definition: sfn.IChainable;
  timeoutSeconds: number;
  /** The name the template's metadata gives it: the local runtime picks each workflow by it. */
  workflow: WorkflowKind;
  /** Why ERROR logs are enough when the level is not ALL (what the alarms count). */
  errorLogsReason: string;
  /** The functions its tasks invoke. */
  taskFunctions: readonly lambda.IFunction[];
}

/**
 * A workflow's standard state machine and its log group, as every workflow of the stack has them:
 * traced, logging events (never execution data: inputs and outputs name exports and erasures,
 * never links or users), named in the template for the local runtime.
 */
export function workflowStateMachine(
  scope: Construct,
  props: WorkflowStateMachineProps,
): { stateMachine: sfn.StateMachine; logGroup: logs.LogGroup } {
  const logGroup = new logs.LogGroup(scope, 'Logs', {
    logGroupName: props.logGroupName,
    retention: props.logRetention,
  });
  const stateMachine = new sfn.StateMachine(scope, 'StateMachine', {
    stateMachineName: props.stateMachineName,
    stateMachineType: sfn.StateMachineType.STANDARD,
    definitionBody: sfn.DefinitionBody.fromChainable(props.definition),
    timeout: Duration.seconds(props.timeoutSeconds),
    tracingEnabled: true,
    logs: {
      destination: logGroup,
      level: props.logLevel === 'ALL' ? sfn.LogLevel.ALL : sfn.LogLevel.ERROR,
      includeExecutionData: false,
    },
  });
  (stateMachine.node.defaultChild as CfnResource).addMetadata(WORKFLOW_METADATA_KEY, props.workflow);

  if (props.logLevel !== 'ALL') {
    Validations.of(stateMachine).acknowledge({ id: 'AwsSolutions-SF1', reason: props.errorLogsReason });
  }
  const role = stateMachine.role;
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Logging to CloudWatch Logs (logs:*LogDelivery, PutResourcePolicy, Describe*) and X-Ray tracing do not support resource-level permissions.',
  });
  for (const fn of props.taskFunctions) {
    Validations.of(role).acknowledge({
      id: iamWildcardResourceFindingId(scope, `${fn.functionArn}:*`),
      reason:
        'LambdaInvoke grants invoking the function and its versions/aliases; only this function is reachable.',
    });
  }
  return { stateMachine, logGroup };
}
