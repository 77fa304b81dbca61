import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenWebExports } from '../../../infra/OpenWebExports';
import { cdkJsonContext } from '../../../infra/openWebExportsApp';
import { PollingWorkflowFailStates } from '../../../infra/PollingWorkflow';
import { SKIP_BUNDLING_CONTEXT } from '../../../infra/synthesizeStackTemplate';
import { HandlerNames } from '../../../lib/http/routeTable';
import { extractStateMachineDefinition } from './extractStateMachineDefinition';
import {
  newAssemblyDirectory,
  removeTestAssemblies,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from './synthesizeTestStack';
import { functionOf, resourcesOfType, type TemplateResource } from './templateQueries';

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

interface MetricFilterJson {
  LogGroupName: unknown;
  FilterPattern: string;
  MetricTransformations: { MetricNamespace: string; MetricName: string; MetricValue: string }[];
}

interface AlarmJson {
  AlarmName?: string;
  AlarmDescription?: string;
  MetricName?: string;
  Namespace?: string;
  Metrics?: {
    Id: string;
    Expression?: string;
    MetricStat?: { Metric: { MetricName: string; Namespace: string } };
  }[];
}

function metricFilters(stack: SynthesizedTestStack): MetricFilterJson[] {
  return resourcesOfType(stack.template, 'AWS::Logs::MetricFilter').map(
    ([, filter]) => filter.Properties as unknown as MetricFilterJson,
  );
}

function alarms(stack: SynthesizedTestStack): AlarmJson[] {
  return resourcesOfType(stack.template, 'AWS::CloudWatch::Alarm').map(
    ([, alarm]) => alarm.Properties as unknown as AlarmJson,
  );
}

/** The log group a Lambda function of `handler` writes to. */
function logGroupOf(
  stack: SynthesizedTestStack,
  handler: (typeof HandlerNames)[keyof typeof HandlerNames],
): unknown {
  const [, fn] = functionOf(stack.template, handler);
  return { Ref: (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref };
}

function workflowLogGroup(stack: SynthesizedTestStack): unknown {
  const [, machine] = resourcesOfType(stack.template, 'AWS::StepFunctions::StateMachine')[0] as [
    string,
    TemplateResource,
  ];
  const arn = (
    machine.Properties.LoggingConfiguration as {
      Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [string, string] } } }[];
    }
  ).Destinations[0]?.CloudWatchLogsLogGroup.LogGroupArn;
  return { Ref: arn?.['Fn::GetAtt'][0] };
}

describe('the alarms', () => {
  let stack: SynthesizedTestStack;
  const namespace = 'OpenWebExports/OpenWebExports';

  beforeAll(() => {
    stack = synthesizeTestStack({});
  });

  it('fire when a workflow could not be started, from what start and the reconciler count', () => {
    // Act
    const filters = metricFilters(stack).filter((filter) =>
      filter.MetricTransformations.some((metric) => metric.MetricName === 'WorkflowStartsFailed'),
    );
    const alarm = alarms(stack).find((candidate) => candidate.MetricName === 'WorkflowStartsFailed');

    // Assess: Powertools writes the count as a number, or as a list when one invocation counts twice.
    expect(filters.map((filter) => [filter.LogGroupName, filter.FilterPattern])).toEqual(
      expect.arrayContaining([
        [logGroupOf(stack, HandlerNames.START), '{ $.WorkflowStartsFailed > 0 }'],
        [logGroupOf(stack, HandlerNames.START), '{ $.WorkflowStartsFailed[0] > 0 }'],
        [logGroupOf(stack, HandlerNames.RECONCILE), '{ $.WorkflowStartsFailed > 0 }'],
        [logGroupOf(stack, HandlerNames.RECONCILE), '{ $.WorkflowStartsFailed[0] > 0 }'],
      ]),
    );
    expect(filters).toHaveLength(4);
    expect(alarm?.Namespace).toBe(namespace);
  });

  it('page on a workflow that crashed, not on one that ended in a business outcome', () => {
    // Act
    const raw = alarms(stack).filter((alarm) => alarm.MetricName === 'ExecutionsFailed');
    const crashes = alarms(stack).find((alarm) =>
      alarm.Metrics?.some((metric) => metric.Expression !== undefined),
    );
    const outcomeFilters = metricFilters(stack).filter(
      (filter) =>
        filter.LogGroupName !== undefined &&
        JSON.stringify(filter.LogGroupName) === JSON.stringify(workflowLogGroup(stack)),
    );

    // Assess: an upstream rejection or a deadline abort is a FAILED or ABORTED export, its reason
    // recorded: not a page. A crash is every failed execution that did not end in one of those.
    expect(raw).toEqual([]);
    const expression = crashes?.Metrics?.find((metric) => metric.Expression !== undefined)?.Expression;
    const statOf = (id: string) =>
      crashes?.Metrics?.find((metric) => metric.Id === id)?.MetricStat?.Metric.MetricName;
    const [failed, ...outcomes] =
      /^FILL\((\w+), 0\) - FILL\((\w+), 0\) - FILL\((\w+), 0\)$/.exec(expression ?? '')?.slice(1) ?? [];
    expect(statOf(failed as string)).toBe('ExecutionsFailed');
    expect(outcomes.map((id) => statOf(id)).sort()).toEqual(['ExportRejected', 'ExportTimedOut']);
    expect(outcomeFilters.map((filter) => filter.FilterPattern).sort()).toEqual(
      Object.keys(PollingWorkflowFailStates)
        .map((state) => `{ ($.type = "FailStateEntered") && ($.details.name = "${state}") }`)
        .sort(),
    );
  });

  it('classify every Fail state of the workflow as a business outcome or a crash', () => {
    // Act
    const { definition } = extractStateMachineDefinition(stack.template);
    const failStates = Object.entries(definition.States as Record<string, { Type: string }>)
      .filter(([, state]) => state.Type === 'Fail')
      .map(([name]) => name);

    // Assess
    expect(failStates.sort()).toEqual(Object.keys(PollingWorkflowFailStates).sort());
  });

  it('count into a namespace of the deployment’s own, so two deployments in one account and region keep apart', () => {
    // Prepare
    const app = new App({
      context: { ...cdkJsonContext(), ...SKIP_BUNDLING_CONTEXT },
      outdir: newAssemblyDirectory(),
    });
    const shared = new Stack(app, 'Shared');
    new OpenWebExports(shared, 'Marketing');
    new OpenWebExports(shared, 'Newsroom');

    // Act
    const namespaces = new Set(
      resourcesOfType(Template.fromStack(shared), 'AWS::Logs::MetricFilter').flatMap(([, filter]) =>
        (filter.Properties as unknown as MetricFilterJson).MetricTransformations.map(
          (metric) => metric.MetricNamespace,
        ),
      ),
    );

    // Assess
    expect(namespaces).toEqual(
      new Set(['OpenWebExports/Shared-Marketing', 'OpenWebExports/Shared-Newsroom']),
    );
  });
});

describe('the workflow’s log', () => {
  function levelOf(stack: SynthesizedTestStack): unknown {
    const [, machine] = resourcesOfType(stack.template, 'AWS::StepFunctions::StateMachine')[0] as [
      string,
      TemplateResource,
    ];
    return machine.Properties.LoggingConfiguration as { Level: string; IncludeExecutionData: boolean };
  }

  it('holds errors only by default: ALL costs about three log events a poll', () => {
    // Act / Assess
    expect(levelOf(synthesizeTestStack({}))).toMatchObject({ Level: 'ERROR', IncludeExecutionData: false });
  });

  it('holds every event with workflowLogLevel ALL', () => {
    // Act / Assess
    expect(levelOf(synthesizeTestStack({ workflowLogLevel: 'ALL' }))).toMatchObject({
      Level: 'ALL',
      IncludeExecutionData: false,
    });
  });
});
