import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  SFNClient,
  SFNServiceException,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { StepFunctionsPollingWorkflows } from '../../../../lib/workflow/StepFunctionsPollingWorkflows';

const STATE_MACHINE_ARN = 'arn:aws-cn:states:cn-north-1:123456789012:stateMachine:ExportPolling';
const EXECUTION_ARN = 'arn:aws-cn:states:cn-north-1:123456789012:execution:ExportPolling:ex_1';
const input = {
  spotId: 'sp_a',
  exportId: 'ex_1',
  firstPollDelaySeconds: 30,
  deadline: '2026-01-01T06:00:00.000Z',
};

describe('StepFunctionsPollingWorkflows', () => {
  const client = new SFNClient({ region: 'cn-north-1' });
  const sfn = mockClient(client);
  const workflows = new StepFunctionsPollingWorkflows({ client, stateMachineArn: STATE_MACHINE_ARN });

  beforeEach(() => {
    sfn.reset();
  });

  it('starts an execution named as asked, with the input as JSON', async () => {
    // Prepare
    sfn.on(StartExecutionCommand).resolves({ executionArn: EXECUTION_ARN, startDate: new Date() });

    // Act
    await workflows.start('ex_1', input);

    // Assess
    expect(sfn).toHaveReceivedCommandWith(StartExecutionCommand, {
      stateMachineArn: STATE_MACHINE_ARN,
      name: 'ex_1',
      input: JSON.stringify(input),
    });
  });

  it('treats an execution that already exists as started', async () => {
    // Prepare
    sfn.on(StartExecutionCommand).rejects(new ExecutionAlreadyExists({ message: 'exists', $metadata: {} }));

    // Act / Assess
    await expect(workflows.start('ex_1', input)).resolves.toBeUndefined();
  });

  it('passes other failures to start on', async () => {
    // Prepare
    const throttled = new SFNServiceException({
      name: 'ThrottlingException',
      $fault: 'client',
      message: 'slow down',
      $metadata: {},
    });
    sfn.on(StartExecutionCommand).rejects(throttled);

    // Act / Assess
    await expect(workflows.start('ex_1', input)).rejects.toBe(throttled);
  });

  it('stops the execution by the ARN derived from the state machine, partition included', async () => {
    // Prepare
    sfn.on(StopExecutionCommand).resolves({ stopDate: new Date() });

    // Act
    await workflows.stop('ex_1', 'export aborted');

    // Assess
    expect(sfn).toHaveReceivedCommandWith(StopExecutionCommand, {
      executionArn: EXECUTION_ARN,
      cause: 'export aborted',
    });
  });

  it('does not mind stopping an execution that does not exist', async () => {
    // Prepare
    sfn.on(StopExecutionCommand).rejects(new ExecutionDoesNotExist({ message: 'gone', $metadata: {} }));

    // Act / Assess
    await expect(workflows.stop('ex_1', 'export aborted')).resolves.toBeUndefined();
  });

  it.each([
    ['RUNNING', true],
    ['SUCCEEDED', false],
    ['FAILED', false],
    ['ABORTED', false],
  ] as const)('reports an execution %s as running: %s', async (status, running) => {
    // Prepare
    sfn.on(DescribeExecutionCommand, { executionArn: EXECUTION_ARN }).resolves({ status });

    // Act / Assess
    await expect(workflows.isRunning('ex_1')).resolves.toBe(running);
  });

  it('reports an unknown execution as not running', async () => {
    // Prepare
    sfn.on(DescribeExecutionCommand).rejects(new ExecutionDoesNotExist({ message: 'gone', $metadata: {} }));

    // Act / Assess
    await expect(workflows.isRunning('ex_1')).resolves.toBe(false);
  });

  it('refuses an ARN that is not a state machine', () => {
    // Act / Assess
    expect(
      () =>
        new StepFunctionsPollingWorkflows({
          client,
          stateMachineArn: 'arn:aws:lambda:eu-west-1:1:function:f',
        }),
    ).toThrow(RangeError);
  });
});
