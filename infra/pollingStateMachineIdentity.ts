import { ArnFormat, Fn, type Stack } from 'aws-cdk-lib';
import { stackInstanceId } from './stackInstanceId';

/** Step Functions' limit on a state machine name. */
const STATE_MACHINE_NAME_MAX_LENGTH = 80;
/** The part of the stack instance's UUID the name carries: its first group, 8 hex digits. */
const INSTANCE_SUFFIX_LENGTH = 8;

export interface PollingStateMachineIdentity {
  /** `<namePrefix>-ExportPolling-<first 8 hex digits of the stack instance's UUID>`, a token. */
  name: string;
  stateMachineArn: string;
  /** Every execution of the state machine: `arn:...:execution:<name>:*`. */
  executionsArn: string;
  /** `/aws/vendedlogs/states/<namePrefix>-ExportPolling-<stack instance UUID>`. */
  logGroupName: string;
}

/**
 * The polling state machine's name and ARNs, known before the state machine exists.
 * The state machine invokes workflow-task and archive, which in turn need its ARN: building
 * the ARN from the name (rather than referencing the resource) breaks that cycle.
 *
 * The name carries the stack instance (from the stack id, not from the state machine): a deleted
 * state machine stays DELETING while its executions wait, and creating one of the same name
 * meanwhile fails (`StateMachineDeleting`). So a deploy after a destroy gets a name of its own.
 * @throws Error when the name would be longer than Step Functions allows
 */
export function pollingStateMachineIdentity(
  stack: Stack,
  namePrefix: string,
  /** What the state machine runs, in its name: the erasure workflow's is `ExportErasure`. */
  workflow = 'ExportPolling',
): PollingStateMachineIdentity {
  const base = `${namePrefix}-${workflow}`;
  const nameLength = base.length + 1 + INSTANCE_SUFFIX_LENGTH;
  if (nameLength > STATE_MACHINE_NAME_MAX_LENGTH) {
    throw new Error(
      `The state machine name ${base}-<instance> is ${nameLength} characters, more than ${STATE_MACHINE_NAME_MAX_LENGTH}: use a shorter name prefix (stack name)`,
    );
  }
  const instance = stackInstanceId(stack);
  const name = Fn.join('', [`${base}-`, Fn.select(0, Fn.split('-', instance))]);
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
    // The group is retained with its logs: a fixed name would make creating the stack again fail.
    logGroupName: Fn.join('', [`/aws/vendedlogs/states/${base}-`, instance]),
  };
}
