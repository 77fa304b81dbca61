import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CloudFormationTemplate } from './extractStateMachine';
import { createOpenWebExportsApp } from './openWebExportsApp';
import { STACK_CONFIG_CONTEXT_KEY } from './stackConfig';

/** Context that makes NodejsFunction skip esbuild: a template is all that is wanted. */
export const SKIP_BUNDLING_CONTEXT = { 'aws:cdk:bundling-stacks': [] } as const;

/**
 * The stack's CloudFormation template, synthesized in memory without bundling, for tools
 * that run the cloud definitions elsewhere (the local workflow runner). `stackConfig` is the
 * raw `openwebExports` value; the temporary cloud assembly is removed before returning.
 * The checks (cdk-nag, the CDK's template validation) are left to `cdk synth` and the tests:
 * they never change the template and took three quarters of the time.
 */
export function synthesizeStackTemplate(stackConfig: unknown = {}): CloudFormationTemplate {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk.out-openweb-exports-'));
  try {
    const { app, stack } = createOpenWebExportsApp({
      context: { ...SKIP_BUNDLING_CONTEXT, [STACK_CONFIG_CONTEXT_KEY]: stackConfig },
      outdir,
      checks: false,
    });
    return app.synth().getStackArtifact(stack.artifactId).template as CloudFormationTemplate;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
