import { SFNClient } from '@aws-sdk/client-sfn';
import { StepFunctionsPollingWorkflows } from '../../workflow/StepFunctionsPollingWorkflows';
import { AWS_REQUEST_HANDLER } from '../AwsClients';
import type { AdapterFactory } from '../buildDependencies';
import { requiredResource } from './requiredResource';

/** The polling workflow's executions in Step Functions. */
export const stepFunctionsWorkflowsFactory: AdapterFactory<'workflows'> = ({ config, clients }) =>
  new StepFunctionsPollingWorkflows({
    client: clients.stepFunctions ?? new SFNClient({ requestHandler: AWS_REQUEST_HANDLER }),
    stateMachineArn: requiredResource(config.resources.stateMachineArn, 'STATE_MACHINE_ARN'),
  });

/** The erasure workflow's executions in Step Functions. */
export const stepFunctionsErasureWorkflowsFactory: AdapterFactory<'erasureWorkflows'> = ({
  config,
  clients,
}) =>
  new StepFunctionsPollingWorkflows({
    client: clients.stepFunctions ?? new SFNClient({ requestHandler: AWS_REQUEST_HANDLER }),
    stateMachineArn: requiredResource(config.resources.erasureStateMachineArn, 'ERASURE_STATE_MACHINE_ARN'),
  });
