import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenWebExports } from '../../../infra/OpenWebExports';
import { cdkJsonContext } from '../../../infra/openWebExportsApp';
import { SKIP_BUNDLING_CONTEXT } from '../../../infra/synthesizeStackTemplate';
import {
  newAssemblyDirectory,
  removeTestAssemblies,
  synthesizeTestStack,
} from '../../infra/synthesizeTestStack';
import { resourcesOfType } from '../../infra/templateQueries';

afterAll(() => {
  removeTestAssemblies();
});

/** The construct alone in a stack pinned to `region` (or environment-agnostic). */
function synthesizeIn(region: string | undefined): Template {
  const app = new App({
    context: { ...cdkJsonContext(), ...SKIP_BUNDLING_CONTEXT },
    outdir: newAssemblyDirectory(),
  });
  const stack = new Stack(
    app,
    'Exports',
    region === undefined ? {} : { env: { account: '123456789012', region } },
  );
  new OpenWebExports(stack, 'Default', { namePrefix: 'openweb' });
  return Template.fromStack(stack);
}

function dashboardNameOf(template: Template): unknown {
  return resourcesOfType(template, 'AWS::CloudWatch::Dashboard')[0]?.[1].Properties.DashboardName;
}

describe('the dashboard', () => {
  it('is named per region, so the same stack deploys in a second region of the account', () => {
    // Act
    const names = ['eu-west-1', 'us-east-1'].map((region) => dashboardNameOf(synthesizeIn(region)));

    // Assess: dashboards are global per account; two regions' stacks must not share a name.
    expect(names).toEqual(['openweb-eu-west-1', 'openweb-us-east-1']);
  });

  it('takes the region from the deployment when the stack names none', () => {
    // Act
    const name = dashboardNameOf(synthesizeIn(undefined));

    // Assess
    expect(name).toEqual({ 'Fn::Join': ['', ['openweb-', { Ref: 'AWS::Region' }]] });
  });

  it('is the stack output DashboardName', () => {
    // Prepare
    const { template } = synthesizeTestStack({});

    // Act
    const output = (template.toJSON().Outputs as Record<string, { Value: unknown }>).DashboardName?.Value;

    // Assess
    const [dashboardId] = resourcesOfType(template, 'AWS::CloudWatch::Dashboard')[0] ?? [];
    expect(output).toEqual({ Ref: dashboardId });
  });
});
