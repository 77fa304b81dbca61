import type { RecordDependencies } from '../record/ports';
import type { PollingWorkflowInput } from './workflowContract';

/** The polling workflow runner: Step Functions in the cloud, aws-local-stepfunctions locally. */
export interface PollingWorkflows {
  /** Idempotent per execution name: starting a running one again is not an error. */
  start(executionName: string, input: PollingWorkflowInput): Promise<void>;
  /** Stopping a finished or unknown execution is not an error. */
  stop(executionName: string, reason: string): Promise<void>;
  isRunning(executionName: string): Promise<boolean>;
}

export interface WorkflowDependencies extends RecordDependencies {
  workflows: PollingWorkflows;
}
