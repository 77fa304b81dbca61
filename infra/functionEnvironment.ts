import type { FunctionGroup, Setting } from '../lib/settings/Setting';
import { SETTINGS, type SettingName, type Settings } from '../lib/settings/settingsTable';
import { settingText } from '../lib/settings/settingValue';
import type { StackConfig } from './stackConfig';

/** The variables naming a resource the stack creates (`TABLE_NAME` …). */
export type ResourceVariable = {
  [N in SettingName]: Settings[N] extends { scope: 'resource'; env: infer E extends string } ? E : never;
}[SettingName];

/** The resources' names or ARNs (CDK tokens in the stack); a resource left out is not written. */
export type FunctionResources = Partial<Record<ResourceVariable, string>>;

const ALL_SETTINGS = Object.values(SETTINGS as Record<string, Setting>);

/**
 * The environment of the functions of `group` (`all`: one process running every function, as
 * `npm start` does), from the settings table: each variable those functions read, with its
 * value from the stack configuration, the resource it names, or its default where the stack
 * writes the default. A variable whose value is unset is left out: the functions then use
 * their default.
 */
export function functionEnvironment(
  group: FunctionGroup | 'all',
  config: StackConfig,
  resources: FunctionResources,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const setting of ALL_SETTINGS) {
    if (setting.env === undefined || !isReadBy(setting, group)) continue;
    const text = settingText(settingValueOf(setting, config, resources));
    if (text !== undefined) environment[setting.env] = text;
  }
  return environment;
}

function isReadBy(setting: Setting, group: FunctionGroup | 'all'): boolean {
  if (setting.readBy === undefined) return false;
  return group === 'all' || setting.readBy === 'all' || setting.readBy === group;
}

function settingValueOf(setting: Setting, config: StackConfig, resources: FunctionResources): unknown {
  if (setting.scope === 'resource') return resources[setting.env as ResourceVariable];
  if (setting.path !== undefined) return valueAt(config, setting.path);
  return setting.writtenAsDefault === true ? setting.default : undefined;
}

/** `polling.exportDeadlineSeconds` → its value in `config`; undefined when a level is missing (`auth.spotClaim` in IAM mode). */
function valueAt(config: StackConfig, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) =>
        typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined,
      config,
    );
}
