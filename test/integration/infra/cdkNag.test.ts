import { type App, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenWebExportsApp } from '../../../infra/openWebExportsApp';
import { SKIP_BUNDLING_CONTEXT } from '../../../infra/synthesizeStackTemplate';
import {
  newAssemblyDirectory,
  removeTestAssemblies,
  SCHEDULED_SPOT_CONFIG,
  STACK_SHAPES,
  type StackShape,
  synthesizeTestStack,
} from './synthesizeTestStack';

const testedConfigs = {
  defaults: {},
  'JWT auth, schedules and alarm emails': {
    ...SCHEDULED_SPOT_CONFIG,
    auth: { mode: 'jwt', issuer: 'https://issuer.example.com/', audience: ['exports-api'] },
    alarmEmail: 'ops@example.com',
  },
};

type ConfigLabel = keyof typeof testedConfigs;
/** `<config label> <stack shape>`: each config as deployed and embedded in another app's stack. */
type AppLabel = `${ConfigLabel} ${StackShape}`;
const apps = new Map<AppLabel, App>();
const APP_LABELS = (Object.keys(testedConfigs) as ConfigLabel[]).flatMap((label) =>
  STACK_SHAPES.map((shape): AppLabel => `${label} ${shape}`),
);

beforeAll(() => {
  for (const [label, config] of Object.entries(testedConfigs) as [ConfigLabel, unknown][]) {
    for (const shape of STACK_SHAPES) apps.set(`${label} ${shape}`, synthesizeTestStack(config, shape).app);
  }
});

afterAll(() => {
  removeTestAssemblies();
});

function appFor(label: AppLabel): App {
  const app = apps.get(label);
  if (app === undefined) throw new Error(`no app synthesized for ${label}`);
  return app;
}

/** Every acknowledgement recorded in the tree, with its construct path, id and reason. */
function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

describe('cdk-nag AwsSolutions', () => {
  it.each(APP_LABELS)('reports no unacknowledged finding (%s)', (label) => {
    // Prepare
    const app = appFor(label);

    // Act
    const report = new AwsSolutionsChecks(app).validateScope(app);

    // Assess
    const findings = report.violations.map(
      (violation) =>
        `${violation.severity} ${violation.ruleName} at ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it.each(STACK_SHAPES)('gives every acknowledgement a specific finding and a reason (%s)', (shape) => {
    // Prepare
    const app = appFor(`JWT auth, schedules and alarm emails ${shape}`);

    // Act
    const acknowledged = acknowledgements(app);

    // Assess
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { id, reason } of acknowledged) {
      expect(id).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(reason.length).toBeGreaterThan(40);
    }
    expect(acknowledged.filter(({ id }) => /^AwsSolutions-IAM[45]$/.test(id))).toEqual([]);
  });

  it('is wired into synthesis: an unacknowledged finding fails it', () => {
    // Prepare
    const { app, stack } = createOpenWebExportsApp({
      context: { ...SKIP_BUNDLING_CONTEXT },
      outdir: newAssemblyDirectory(),
    });
    new sqs.Queue(stack, 'UncheckedQueue', { encryption: sqs.QueueEncryption.UNENCRYPTED });

    // Act
    const synthesize = () => app.synth();

    // Assess
    expect(synthesize).toThrow(/AwsSolutions-SQS4/);
  });
});
