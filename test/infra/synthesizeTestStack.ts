import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { OpenWebExportsStack } from '../../infra/OpenWebExportsStack';
import { createOpenWebExportsApp } from '../../infra/openWebExportsApp';
import { STACK_CONFIG_CONTEXT_KEY } from '../../infra/stackConfig';
import { SKIP_BUNDLING_CONTEXT } from '../../infra/synthesizeStackTemplate';

export interface SynthesizedTestStack {
  app: App;
  stack: OpenWebExportsStack;
  template: Template;
}

const assemblyDirectories: string[] = [];

/** A config with one scheduled spot, so every optional resource (export schedule, its DLQ) is present. */
export const SCHEDULED_SPOT_CONFIG = {
  spots: [
    {
      spotId: 'sp_abc123',
      schedules: [{ expression: 'cron(0 2 * * ? *)', window: 'P1D', timeZone: 'Europe/Paris' }],
    },
    {
      spotId: 'sp_second',
      schedules: [{ expression: 'rate(12 hours)', window: 'PT12H', flexibleWindowMinutes: 15 }],
    },
  ],
};

/**
 * The app exactly as `infra/app.ts` builds it (cdk-nag included), configured with `stackConfig`
 * as the `openwebExports` context, bundling skipped, synthesized into a temporary directory.
 */
/** A fresh temporary `cdk.out*` directory, removed by `removeTestAssemblies`. */
export function newAssemblyDirectory(): string {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk.out-test-'));
  assemblyDirectories.push(outdir);
  return outdir;
}

export function synthesizeTestStack(stackConfig: unknown = {}): SynthesizedTestStack {
  const outdir = newAssemblyDirectory();
  const { app, stack } = createOpenWebExportsApp({
    context: { ...SKIP_BUNDLING_CONTEXT, [STACK_CONFIG_CONTEXT_KEY]: stackConfig },
    outdir,
  });
  return { app, stack, template: Template.fromStack(stack) };
}

/** Teardown: remove every cloud assembly synthesized by this test file. */
export function removeTestAssemblies(): void {
  for (const directory of assemblyDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
}
