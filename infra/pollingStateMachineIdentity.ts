import { ArnFormat, type Stack } from 'aws-cdk-lib';

/** Step Functions' limit on a state machine name. */
const STATE_MACHINE_NAME_MAX_LENGTH = 80;

export interface PollingStateMachineIdentity {
  name: string;
  stateMachineArn: string;
  /** Every execution of the state machine: `arn:...:execution:<name>:*`. */
  executionsArn: string;
}

/**
 * The polling state machine's name and ARNs, known before the state machine exists.
 * The state machine invokes workflow-task and archive, which in turn need its ARN: building
 * the ARN from a fixed name (rather than referencing the resource) breaks that cycle.
 */
export function pollingStateMachineIdentity(stack: Stack, namePrefix: string): PollingStateMachineIdentity {
  const name = `${namePrefix}-ExportPolling`;
  if (name.length > STATE_MACHINE_NAME_MAX_LENGTH) {
    throw new Error(
      `The state machine name ${name} is longer than ${STATE_MACHINE_NAME_MAX_LENGTH} characters: use a shorter name prefix (stack name)`,
    );
  }
  return {
    name,
    stateMachineArn: stack.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: name,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    }),
    executionsArn: stack.formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${name}:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    }),
  };
}
