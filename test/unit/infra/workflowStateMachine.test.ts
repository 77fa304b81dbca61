import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_METADATA_KEY } from '../../../infra/extractStateMachine';
import type { WorkflowLogLevel } from '../../../infra/stackConfig';
import { workflowStateMachine } from '../../../infra/workflowStateMachine';

function synthesize(logLevel: WorkflowLogLevel): Template {
  const stack = new Stack(new App(), 'Workflow');
  const task = lambda.Function.fromFunctionArn(
    stack,
    'Task',
    'arn:aws:lambda:us-east-1:123456789012:function:task',
  );
  workflowStateMachine(stack, {
    stateMachineName: 'erasure',
    logGroupName: '/aws/vendedlogs/states/erasure',
    logRetention: logs.RetentionDays.ONE_MONTH,
    logLevel,
    definition: new sfn.Pass(stack, 'Start'),
    timeoutSeconds: 3600,
    workflow: 'erasure',
    errorLogsReason: 'ERROR logs every failure.',
    taskFunctions: [task],
  });
  return Template.fromStack(stack);
}

describe('workflowStateMachine', () => {
  it('is a traced standard state machine with its own log group, logging events but never execution data, named in the template for the local runtime', () => {
    // Act
    const template = synthesize('ERROR');

    // Assess
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: '/aws/vendedlogs/states/erasure',
      RetentionInDays: 30,
    });
    template.hasResource('AWS::StepFunctions::StateMachine', {
      Metadata: { [WORKFLOW_METADATA_KEY]: 'erasure' },
      Properties: Match.objectLike({
        StateMachineName: 'erasure',
        StateMachineType: 'STANDARD',
        TracingConfiguration: { Enabled: true },
        LoggingConfiguration: Match.objectLike({ Level: 'ERROR', IncludeExecutionData: false }),
      }),
    });
    const [definition] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    expect(JSON.stringify(definition)).toContain('\\"TimeoutSeconds\\":3600');
  });

  it('logs every state when the level is ALL', () => {
    synthesize('ALL').hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: false }),
    });
  });
});
