import {
  DescribeExecutionCommand,
  type SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import type { ErasureWorkflowInput } from '../exports/erasure/erasureWorkflowContract';
import type { ErasureWorkflows } from '../exports/erasure/ports';
import type { PollingWorkflows } from '../exports/workflow/ports';
import type { PollingWorkflowInput } from '../exports/workflow/workflowContract';

export interface StepFunctionsPollingWorkflowsOptions {
  client: SFNClient;
  /** `arn:<partition>:states:<region>:<account>:stateMachine:<name>` */
  stateMachineArn: string;
}

const STATE_MACHINE_ARN = /^(arn:[^:]+:states:[^:]+:[^:]+):stateMachine:([^:]+)$/;
/** The error name a stopped execution reports, so its history says why it ended. */
export const WORKFLOW_STOP_ERROR = 'ExportAborted';

/**
 * A workflow on Step Functions (the polling workflow, the erasure workflow). The execution name is the key: starting an
 * existing one is success (a retried start must not launch a second), and stopping or
 * asking about one that is gone is not an error.
 */
export class StepFunctionsPollingWorkflows implements PollingWorkflows, ErasureWorkflows {
  readonly #client: SFNClient;
  readonly #stateMachineArn: string;
  readonly #executionArnPrefix: string;

  constructor(options: StepFunctionsPollingWorkflowsOptions) {
    const match = STATE_MACHINE_ARN.exec(options.stateMachineArn);
    if (match === null) throw new RangeError('stateMachineArn must be a Step Functions state machine ARN');
    this.#client = options.client;
    this.#stateMachineArn = options.stateMachineArn;
    this.#executionArnPrefix = `${match[1]}:execution:${match[2]}:`;
  }

  executionArn(executionName: string): string {
    return `${this.#executionArnPrefix}${executionName}`;
  }

  async start(executionName: string, input: PollingWorkflowInput | ErasureWorkflowInput): Promise<void> {
    try {
      await this.#client.send(
        new StartExecutionCommand({
          stateMachineArn: this.#stateMachineArn,
          name: executionName,
          input: JSON.stringify(input),
        }),
      );
    } catch (error) {
      // Same name already used (running, finished, or other input): the export has its workflow.
      if (!isServiceError(error, 'ExecutionAlreadyExists')) throw error;
    }
  }

  async stop(executionName: string, reason: string): Promise<void> {
    try {
      await this.#client.send(
        new StopExecutionCommand({
          executionArn: this.executionArn(executionName),
          error: WORKFLOW_STOP_ERROR,
          cause: reason,
        }),
      );
    } catch (error) {
      if (!isServiceError(error, 'ExecutionDoesNotExist')) throw error;
    }
  }

  async isRunning(executionName: string): Promise<boolean> {
    try {
      const { status } = await this.#client.send(
        new DescribeExecutionCommand({ executionArn: this.executionArn(executionName) }),
      );
      return status === 'RUNNING';
    } catch (error) {
      if (isServiceError(error, 'ExecutionDoesNotExist')) return false;
      throw error;
    }
  }
}

// By name rather than class: a bundle may hold more than one copy of the SDK's error classes.
function isServiceError(error: unknown, name: string): boolean {
  return error instanceof Error && error.name === name;
}
