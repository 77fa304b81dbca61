import { SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../../lib/config';
import { stepFunctionsWorkflowsFactory } from '../../../../../lib/runtime/adapterFactories/stepFunctionsWorkflowsFactory';
import { buildDependencies } from '../../../../../lib/runtime/buildDependencies';
import { InMemoryExportMetrics } from '../../../../../local/InMemoryExportMetrics';
import { captureError } from '../../../../support/captureError';

const STATE_MACHINE_ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:export-polling';

describe('stepFunctionsWorkflowsFactory', () => {
  const client = new SFNClient({ region: 'eu-west-1' });
  const sfn = mockClient(client);

  beforeEach(() => {
    sfn.reset();
    sfn.on(StopExecutionCommand).resolves({});
  });

  const build = (env: Record<string, string>) =>
    buildDependencies(
      loadConfig(env),
      { workflows: stepFunctionsWorkflowsFactory },
      { metrics: new InMemoryExportMetrics(), clients: { stepFunctions: client } },
    );

  it("drives the executions of the stack's state machine (STATE_MACHINE_ARN) through the given client", async () => {
    // Prepare
    const { workflows } = build({ STATE_MACHINE_ARN });

    // Act
    await workflows.stop('ex_1', 'aborted');

    // Assess
    expect(sfn).toHaveReceivedCommandWith(StopExecutionCommand, {
      executionArn: 'arn:aws:states:eu-west-1:123456789012:execution:export-polling:ex_1',
      cause: 'aborted',
    });
  });

  it('needs the state machine', async () => {
    // Act
    const error = await captureError((async () => build({}))());

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(['STATE_MACHINE_ARN is required']);
  });
});
