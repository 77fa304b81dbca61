import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenWebExports } from '../../infra/OpenWebExports';
import { cdkJsonContext } from '../../infra/openWebExportsApp';
import { parseStackConfig, StackConfigError } from '../../infra/stackConfig';
import { SKIP_BUNDLING_CONTEXT } from '../../infra/synthesizeStackTemplate';
import {
  EMBEDDED,
  newAssemblyDirectory,
  removeTestAssemblies,
  SCHEDULED_SPOT_CONFIG,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from './synthesizeTestStack';
import { resourcesOfType } from './templateQueries';

let deployed: SynthesizedTestStack;
let embedded: SynthesizedTestStack;

beforeAll(() => {
  deployed = synthesizeTestStack(SCHEDULED_SPOT_CONFIG);
  embedded = synthesizeTestStack(SCHEDULED_SPOT_CONFIG, 'embedded');
});

afterAll(() => {
  removeTestAssemblies();
});

function emptyStack(): Stack {
  const app = new App({
    context: { ...cdkJsonContext(), ...SKIP_BUNDLING_CONTEXT },
    outdir: newAssemblyDirectory(),
  });
  return new Stack(app, 'Platform');
}

describe('the OpenWebExports construct', () => {
  it('puts the permissions boundary of the embedding stack on every role it creates', () => {
    // Act
    const roles = resourcesOfType(embedded.template, 'AWS::IAM::Role');

    // Assess
    expect(roles.length).toBeGreaterThan(4);
    for (const [, role] of roles) {
      expect(JSON.stringify(role.Properties.PermissionsBoundary)).toContain(
        `:policy/${EMBEDDED.boundaryPolicyName}`,
      );
    }
  });

  it('carries the tags of the embedding stack', () => {
    // Act
    const tables = resourcesOfType(embedded.template, 'AWS::DynamoDB::Table');
    const functions = resourcesOfType(embedded.template, 'AWS::Lambda::Function');

    // Assess
    for (const [, resource] of [...tables, ...functions]) {
      expect(resource.Properties.Tags).toEqual(
        expect.arrayContaining(Object.entries(EMBEDDED.tags).map(([Key, Value]) => ({ Key, Value }))),
      );
    }
  });

  it('names its resources after the stack and its id, or the stack alone as deployed', () => {
    // Act
    const names = (stack: SynthesizedTestStack) => ({
      stateMachine: resourcesOfType(stack.template, 'AWS::StepFunctions::StateMachine')[0]?.[1].Properties
        .StateMachineName,
      bus: resourcesOfType(stack.template, 'AWS::Events::EventBus')[0]?.[1].Properties.Name,
      dashboard: resourcesOfType(stack.template, 'AWS::CloudWatch::Dashboard')[0]?.[1].Properties
        .DashboardName,
    });

    // Assess
    expect(names(deployed)).toEqual({
      stateMachine: 'OpenWebExports-ExportPolling',
      bus: 'OpenWebExports-exports',
      dashboard: 'OpenWebExports',
    });
    expect(names(embedded)).toEqual({
      stateMachine: 'data-platform-Exports-ExportPolling',
      bus: 'data-platform-Exports-exports',
      dashboard: 'data-platform-Exports',
    });
  });

  it('keeps the logical ids the stack had before it held the construct', () => {
    // Act
    const tableIds = Object.keys(deployed.template.findResources('AWS::DynamoDB::Table'));
    const outputs = Object.keys(deployed.template.toJSON().Outputs as Record<string, unknown>);

    // Assess
    expect(tableIds).toEqual([expect.stringMatching(/^ExportTable[0-9A-F]{8}$/)]);
    expect(outputs.sort()).toEqual([
      'ApiUrl',
      'DashboardName',
      'EventBusName',
      'StateMachineArn',
      'TableName',
    ]);
  });

  it('can be placed twice in one stack, under other names', () => {
    // Prepare
    const stack = emptyStack();

    // Act
    const first = new OpenWebExports(stack, 'Marketing', { spots: [{ spotId: 'sp_marketing' }] });
    const second = new OpenWebExports(stack, 'Newsroom', { namePrefix: 'newsroom-exports' });
    const template = Template.fromStack(stack);

    // Assess
    expect([first.namePrefix, second.namePrefix]).toEqual(['Platform-Marketing', 'newsroom-exports']);
    const machineNames = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').map(
      ([, machine]) => machine.Properties.StateMachineName,
    );
    expect(machineNames.sort()).toEqual([
      'Platform-Marketing-ExportPolling',
      'newsroom-exports-ExportPolling',
    ]);
    template.resourceCountIs('AWS::DynamoDB::Table', 2);
  });

  it('validates its props as the context is validated, naming each bad prop', () => {
    // Prepare
    const stack = emptyStack();

    // Act
    const create = () =>
      new OpenWebExports(stack, 'Exports', {
        polling: { exportDeadlineSeconds: 10 },
        spots: [{ spotId: 'not-a-spot' }],
      });

    // Assess
    expect(create).toThrow(StackConfigError);
    expect(create).toThrow(/props\.polling\.exportDeadlineSeconds: must be at least 300/);
    expect(create).toThrow(/props\.spots\.0\.spotId/);
  });

  it('fills in the same defaults as the context configuration', () => {
    // Act
    const exports = new OpenWebExports(emptyStack(), 'Exports');

    // Assess
    expect(exports.config).toEqual(parseStackConfig(undefined));
  });

  it('is configured from the openwebExports context when deployed as the stack', () => {
    // Assess
    expect(deployed.exports.config).toEqual(parseStackConfig(SCHEDULED_SPOT_CONFIG));
    expect(deployed.exports.config.spots.map((spot) => spot.spotId)).toEqual(['sp_abc123', 'sp_second']);
  });
});
