import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerNames } from '../../../lib/http/routeTable';
import { type Deployment, resolveValue } from '../../system/shipped/iamPolicy';
import {
  removeTestAssemblies,
  STACK_SHAPES,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from './synthesizeTestStack';
import { functionOf, resourcesGranting, resourcesOfType, statementsOfFunction } from './templateQueries';

afterAll(() => {
  removeTestAssemblies();
});

/** One instance of the stack as CloudFormation would create it: its own stack id. */
function instance(stackUuid: string): Deployment {
  return {
    partition: 'aws',
    region: 'eu-west-1',
    accountId: '123456789012',
    stackId: `arn:aws:cloudformation:eu-west-1:123456789012:stack/OpenWebExports/${stackUuid}`,
    ref: (logicalId) => logicalId,
    getAtt: (logicalId) => logicalId,
  };
}

const FIRST = instance('6f0b9a2e-1111-4c3d-9e8f-0123456789ab');
const AFTER_TEARDOWN = instance('b7c1d3e5-2222-4f6a-8b9c-0123456789ab');

describe.each(STACK_SHAPES)('the polling state machine’s name (%s)', (shape) => {
  let stack: SynthesizedTestStack;
  let name: unknown;

  beforeAll(() => {
    stack = synthesizeTestStack({}, shape);
    name = resourcesOfType(stack.template, 'AWS::StepFunctions::StateMachine')[0]?.[1].Properties
      .StateMachineName;
  });

  it('is new for every instance of the stack, so a redeploy after a destroy never meets the one still DELETING', () => {
    // Act
    const names = [FIRST, AFTER_TEARDOWN].map((deployment) => resolveValue(name, deployment));

    // Assess
    expect(names).toEqual([
      `${stack.namePrefix}-ExportPolling-6f0b9a2e`,
      `${stack.namePrefix}-ExportPolling-b7c1d3e5`,
    ]);
  });

  it('is the one the functions start, describe and stop executions of, known without referencing the state machine', () => {
    // Act
    const environmentArn = (
      functionOf(stack.template, HandlerNames.START)[1].Properties.Environment as {
        Variables: Record<string, unknown>;
      }
    ).Variables.STATE_MACHINE_ARN;
    const started = resourcesGranting(
      statementsOfFunction(stack.template, HandlerNames.START),
      'states:StartExecution',
    );
    const described = resourcesGranting(
      statementsOfFunction(stack.template, HandlerNames.RECONCILE),
      'states:DescribeExecution',
    );

    // Assess: the names are built from the stack id, not Ref/GetAtt of the state machine (which
    // invokes these functions: a reference would be a dependency cycle).
    const machineArn = `arn:aws:states:eu-west-1:123456789012:stateMachine:${stack.namePrefix}-ExportPolling-6f0b9a2e`;
    expect(resolveValue(environmentArn, FIRST)).toBe(machineArn);
    expect(started.map((resource) => resolveValue(JSON.parse(resource), FIRST))).toEqual([machineArn]);
    expect(described.map((resource) => resolveValue(JSON.parse(resource), FIRST))).toEqual([
      `arn:aws:states:eu-west-1:123456789012:execution:${stack.namePrefix}-ExportPolling-6f0b9a2e:*`,
    ]);
  });
});
