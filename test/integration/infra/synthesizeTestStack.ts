import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Tags } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { OpenWebExports, type OpenWebExportsProps } from '../../../infra/OpenWebExports';
import { cdkJsonContext, createOpenWebExportsApp } from '../../../infra/openWebExportsApp';
import { STACK_CONFIG_CONTEXT_KEY } from '../../../infra/stackConfig';
import { SKIP_BUNDLING_CONTEXT } from '../../../infra/synthesizeStackTemplate';

/**
 * How the system is deployed: `deployed` is the app of `infra/app.ts` (OpenWebExportsStack,
 * configured through context); `embedded` is the OpenWebExports construct in a stack of someone
 * else's app, with its own name, tags and a permissions boundary on every role.
 */
export type StackShape = 'deployed' | 'embedded';
export const STACK_SHAPES: readonly StackShape[] = ['deployed', 'embedded'];

/** The embedding app's stack, the construct's id in it, and the boundary its roles must carry. */
export const EMBEDDED = {
  stackId: 'DataPlatform',
  stackName: 'data-platform',
  constructId: 'Exports',
  boundaryPolicyName: 'data-platform-boundary',
  tags: { team: 'data', costCenter: '4711' },
} as const;

export interface SynthesizedTestStack {
  app: App;
  stack: Stack;
  exports: OpenWebExports;
  template: Template;
  /** What the deployment's names start with: the stack name as deployed, `<stack name>-<id>` embedded. */
  namePrefix: string;
}

const assemblyDirectories: string[] = [];

/** A config with one scheduled spot, so every optional resource (export schedule, its DLQ) is present. */
export const SCHEDULED_SPOT_CONFIG = {
  spots: [
    {
      spotId: 'sp_abc123',
      // As typed by hand: Scheduler matches zones in any case; the stack writes the zone's own name.
      schedules: [{ expression: 'cron(0 2 * * ? *)', window: 'P1D', timeZone: 'europe/paris' }],
    },
    {
      spotId: 'sp_second',
      schedules: [{ expression: 'rate(12 hours)', window: 'PT12H', flexibleWindowMinutes: 15 }],
    },
  ],
};

/** A fresh temporary `cdk.out*` directory, removed by `removeTestAssemblies`. */
export function newAssemblyDirectory(): string {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk.out-test-'));
  assemblyDirectories.push(outdir);
  return outdir;
}

/**
 * The system configured with `stackConfig`, bundling skipped, in a temporary directory: as
 * `deployed`, the app exactly as `infra/app.ts` builds it (cdk-nag included) with `stackConfig`
 * as the `openwebExports` context; as `embedded`, `stackConfig` as the construct's props.
 */
export function synthesizeTestStack(
  stackConfig: unknown = {},
  shape: StackShape = 'deployed',
): SynthesizedTestStack {
  const outdir = newAssemblyDirectory();
  if (shape === 'embedded') return synthesizeEmbedded(stackConfig as OpenWebExportsProps, outdir);
  const { app, stack } = createOpenWebExportsApp({
    context: { ...SKIP_BUNDLING_CONTEXT, [STACK_CONFIG_CONTEXT_KEY]: stackConfig },
    outdir,
  });
  return {
    app,
    stack,
    exports: stack.exports,
    template: Template.fromStack(stack),
    namePrefix: stack.stackName,
  };
}

/** The construct in a user-shaped stack: another name, the user's tags, a permissions boundary aspect. */
function synthesizeEmbedded(props: OpenWebExportsProps, outdir: string): SynthesizedTestStack {
  // The same feature flags as this project's app: an embedding app sets its own, these are the tested ones.
  const app = new App({ context: { ...cdkJsonContext(), ...SKIP_BUNDLING_CONTEXT }, outdir });
  const stack = new Stack(app, EMBEDDED.stackId, { stackName: EMBEDDED.stackName });
  for (const [key, value] of Object.entries(EMBEDDED.tags)) Tags.of(stack).add(key, value);
  iam.PermissionsBoundary.of(stack).apply(
    iam.ManagedPolicy.fromManagedPolicyName(stack, 'Boundary', EMBEDDED.boundaryPolicyName),
  );
  const exports = new OpenWebExports(stack, EMBEDDED.constructId, props);
  return { app, stack, exports, template: Template.fromStack(stack), namePrefix: exports.namePrefix };
}

/** Teardown: remove every cloud assembly synthesized by this test file. */
export function removeTestAssemblies(): void {
  for (const directory of assemblyDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
}
