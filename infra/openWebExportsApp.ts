import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PROJECT_ROOT } from './ExportFunction';
import { DEFAULT_STACK_ID, OpenWebExportsStack } from './OpenWebExportsStack';
import { readStackConfig } from './stackConfig';

export interface OpenWebExportsAppOptions {
  /** Context as `-c` would give it, e.g. `{ openwebExports: {...} }`; it wins over cdk.json's. */
  context?: Record<string, unknown>;
  /** Where the cloud assembly goes; the CLI sets it through the environment. */
  outdir?: string;
  /**
   * Whether synthesis checks the stack (default true): cdk-nag's AwsSolutions pack and the CDK's
   * own CloudFormation template validation. Both only read the stack and take most of a
   * synthesis's time; a tool that needs only the template (the local runtime's state machine)
   * leaves them to `cdk synth` and the tests.
   */
  checks?: boolean;
}

/**
 * cdk.json's context (feature flags, config defaults). The CLI passes it to the app itself;
 * reading it here gives in-process synthesis (tests, the local runtime) the same template.
 */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

/**
 * The CDK app: the stack configured from the `openwebExports` context, checked by cdk-nag's
 * AwsSolutions pack (synthesis fails on any finding that is not acknowledged with a reason).
 */
export function createOpenWebExportsApp(options: OpenWebExportsAppOptions = {}): {
  app: App;
  stack: OpenWebExportsStack;
} {
  const checks = options.checks ?? true;
  const app = new App({
    context: { ...cdkJsonContext(), ...options.context },
    builtinCloudFormationValidation: checks,
    ...(options.outdir === undefined ? {} : { outdir: options.outdir }),
  });
  const stack = new OpenWebExportsStack(app, DEFAULT_STACK_ID, {
    config: readStackConfig(app),
    description: 'openweb-exports: OpenWeb comment exports (Export API v4), started, polled and recorded',
  });
  if (checks) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
