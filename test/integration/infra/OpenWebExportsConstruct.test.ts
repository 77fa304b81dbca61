import { App, Stack } from 'aws-cdk-lib';
import type { CfnEventBus } from 'aws-cdk-lib/aws-events';
import type { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { afterAll, describe, expect, it } from 'vitest';
import {
  OpenWebExports,
  type OpenWebExportsConfigProps,
  type OpenWebExportsProps,
} from '../../../infra/OpenWebExports';
import { DEFAULT_STACK_ID } from '../../../infra/OpenWebExportsStack';
import { cdkJsonContext, createOpenWebExportsApp } from '../../../infra/openWebExportsApp';
import {
  parseStackConfig,
  STACK_CONFIG_CONTEXT_KEY,
  type StackConfig,
  StackConfigError,
} from '../../../infra/stackConfig';
import { SKIP_BUNDLING_CONTEXT } from '../../../infra/synthesizeStackTemplate';
import type { Setting } from '../../../lib/settings/Setting';
import { SETTINGS } from '../../../lib/settings/settingsTable';
import { newAssemblyDirectory, removeTestAssemblies, SCHEDULED_SPOT_CONFIG } from './synthesizeTestStack';

afterAll(() => {
  removeTestAssemblies();
});

/** The configuration with the catalog's database name the construct fills in. */
function withDatabaseName(config: StackConfig, catalogDatabaseName: string): StackConfig {
  return { ...config, archive: { ...config.archive, catalogDatabaseName } };
}

function emptyStack(): Stack {
  const app = new App({
    context: { ...cdkJsonContext(), ...SKIP_BUNDLING_CONTEXT },
    outdir: newAssemblyDirectory(),
  });
  return new Stack(app, 'Platform');
}

describe('the OpenWebExports construct', () => {
  it('can be placed twice in one stack, under other names', () => {
    // Prepare
    const stack = emptyStack();

    // Act
    const first = new OpenWebExports(stack, 'Marketing', { spots: [{ spotId: 'sp_marketing' }] });
    const second = new OpenWebExports(stack, 'Newsroom', { namePrefix: 'newsroom-exports' });

    // Assess
    const names = (exports: OpenWebExports) =>
      stack.resolve([
        (exports.workflow.stateMachine.node.defaultChild as CfnStateMachine).stateMachineName,
        exports.eventBus.eventBusName,
      ]);
    expect([first.namePrefix, second.namePrefix]).toEqual(['Platform-Marketing', 'newsroom-exports']);
    const withInstance = (base: string) => ({ 'Fn::Join': ['', [`${base}-`, expect.anything()]] });
    expect(names(first)).toEqual([
      withInstance('Platform-Marketing-ExportPolling'),
      { Ref: expect.any(String) },
    ]);
    expect(names(second)).toEqual([
      withInstance('newsroom-exports-ExportPolling'),
      { Ref: expect.any(String) },
    ]);
    expect(stack.resolve((first.eventBus.node.defaultChild as CfnEventBus).name)).toBe(
      'Platform-Marketing-exports',
    );
    expect(first.table.table.node.path).not.toBe(second.table.table.node.path);
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

  it('names the prop probably meant for a mistyped one', () => {
    // Prepare
    const stack = emptyStack();
    const props = { polling: { exportDeadline: 3600 }, alarmEmails: 'ops@example.com' };

    // Act
    const create = () => new OpenWebExports(stack, 'Exports', props as OpenWebExportsProps);

    // Assess
    expect(create).toThrow(StackConfigError);
    expect(create).toThrow('props: unknown key "alarmEmails" (did you mean "alarmEmail"?)');
    expect(create).toThrow(
      'props.polling: unknown key "exportDeadline" (did you mean "exportDeadlineSeconds"?)',
    );
  });

  it('takes every stack setting of the settings table as a prop, typed as the table says', () => {
    // Prepare: each setting at its default, under its path.
    const props: Record<string, Record<string, unknown>> = { '': {} };
    for (const setting of Object.values(SETTINGS as Record<string, Setting>)) {
      if (setting.path === undefined || setting.default === undefined || setting.path.startsWith('auth.'))
        continue;
      const [group, key] = setting.path.includes('.') ? setting.path.split('.') : ['', setting.path];
      props[group as string] = { ...props[group as string], [key as string]: setting.default };
    }
    const { '': topLevel, ...groups } = props;
    // A prop of the wrong type does not compile.
    // @ts-expect-error exportDeadlineSeconds is a number of seconds
    const wronglyTyped: OpenWebExportsConfigProps = { polling: { exportDeadlineSeconds: '6h' } };

    // Act
    const exports = new OpenWebExports(emptyStack(), 'Exports', {
      ...topLevel,
      ...groups,
    } as OpenWebExportsProps);

    // Assess
    expect(Object.keys(groups.polling ?? {})).toContain('exportDeadlineSeconds');
    expect(exports.config).toEqual({
      ...withDatabaseName(parseStackConfig(undefined), SETTINGS.archiveCatalogDatabaseName.default),
      openWebDownloadHosts: SETTINGS.openWebDownloadHosts.default,
    });
    expect(() => parseStackConfig(wronglyTyped)).toThrow(/polling\.exportDeadlineSeconds: must be a number/);
  });

  it('fills in the same defaults as the context configuration', () => {
    // Act
    const exports = new OpenWebExports(emptyStack(), 'Exports');

    // Assess: the catalog's database is named after the stack (Platform-Exports), unless configured
    expect(exports.config).toEqual(withDatabaseName(parseStackConfig(undefined), 'platform_exports'));
  });

  it('is configured from the openwebExports context when deployed as the stack', () => {
    // Act
    const { stack } = createOpenWebExportsApp({
      context: {
        ...SKIP_BUNDLING_CONTEXT,
        [STACK_CONFIG_CONTEXT_KEY]: JSON.stringify(SCHEDULED_SPOT_CONFIG),
      },
      outdir: newAssemblyDirectory(),
    });

    // Assess
    expect(stack.exports.config).toEqual(
      withDatabaseName(parseStackConfig(SCHEDULED_SPOT_CONFIG), 'openwebexports'),
    );
    expect(stack.exports.namePrefix).toBe(DEFAULT_STACK_ID);
    expect(stack.exports.node.id).toBe('Default');
  });
});
