import * as sqs from 'aws-cdk-lib/aws-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpenWebExportsApp } from '../../../infra/openWebExportsApp';
import { SKIP_BUNDLING_CONTEXT, synthesizeStackTemplate } from '../../../infra/synthesizeStackTemplate';
import {
  newAssemblyDirectory,
  removeTestAssemblies,
  SCHEDULED_SPOT_CONFIG,
  synthesizeTestStack,
} from './synthesizeTestStack';

/** One synthesis with cdk-nag and the CDK's template validation takes several seconds on a busy machine. */
const CHECKED_SYNTHESIS_TIMEOUT_MS = 90_000;

afterAll(() => {
  removeTestAssemblies();
});

describe('synthesizeStackTemplate (the template the local runtime runs the state machine from)', () => {
  it(
    'is the template cdk synth writes, the checks aside',
    () => {
      // Prepare
      const checked = synthesizeTestStack(SCHEDULED_SPOT_CONFIG).template.toJSON();

      // Act
      const unchecked = synthesizeStackTemplate(SCHEDULED_SPOT_CONFIG);

      // Assess
      expect(unchecked).toEqual(checked);
    },
    CHECKED_SYNTHESIS_TIMEOUT_MS,
  );

  it('runs neither cdk-nag nor the template validation, which only read the stack', () => {
    // Prepare: a finding cdk-nag would fail a checked synthesis on (see test/integration/infra/cdkNag.test.ts).
    const { app, stack } = createOpenWebExportsApp({
      context: { ...SKIP_BUNDLING_CONTEXT },
      outdir: newAssemblyDirectory(),
      checks: false,
    });
    new sqs.Queue(stack, 'UncheckedQueue', { encryption: sqs.QueueEncryption.UNENCRYPTED });

    // Act
    const template = app.synth().getStackArtifact(stack.artifactId).template as {
      Resources: Record<string, { Type: string }>;
    };

    // Assess
    expect(Object.values(template.Resources).map((resource) => resource.Type)).toContain('AWS::SQS::Queue');
  });
});
