import { readEnvironment } from './readEnvironment';
import type { ConfigGroup, HasDefault, Setting, SettingValue } from './Setting';
import { SETTINGS, type SettingName, type Settings } from './settingsTable';

/** The settings the functions' configuration holds: those with a place in it (Powertools reads its own). */
type ConfigSettingName = {
  [N in SettingName]: Settings[N] extends { config: string } ? N : never;
}[SettingName];

/**
 * A local setting's default is `npm start`'s, which passes the variable on to the handlers;
 * deployed, such a variable is unset and the functions take none.
 */
type FunctionValue<S extends Setting> =
  | SettingValue<S>
  | (HasDefault<S> extends true ? (S['scope'] extends 'local' ? undefined : never) : undefined);

/** The settings of one group of the configuration, by key, typed from the table. */
type ConfigGroupValues<G extends ConfigGroup> = {
  [N in ConfigSettingName as Settings[N]['config'] extends `${G}.${infer K}` ? K : never]: FunctionValue<
    Settings[N]
  >;
};

/** The functions' configuration as the table places it: `config: 'exports.windowRetryCooldownSeconds'` → `config.exports.windowRetryCooldownSeconds`. */
export type FunctionConfig = { [G in ConfigGroup]: ConfigGroupValues<G> };

const CONFIG_SETTINGS: readonly Setting[] = Object.values(SETTINGS as Record<string, Setting>).filter(
  (setting) => setting.config !== undefined,
);

/**
 * The functions' environment, checked against the table and placed where each row says: the
 * configuration, or a problem per bad variable. Unset variables take their default, but for
 * `npm start`'s own settings (`LOCAL_SECRETS_FILE`), which it passes on when it uses them.
 */
export function readFunctionConfig(env: Readonly<Record<string, string | undefined>>): {
  config: FunctionConfig;
  problems: string[];
} {
  const { values, problems } = readEnvironment(CONFIG_SETTINGS, env, {
    applyDefault: (setting) => setting.scope !== 'local',
  });
  const config: Record<string, Record<string, unknown>> = {};
  for (const setting of CONFIG_SETTINGS) {
    const [group, key] = (setting.config as string).split('.') as [string, string];
    config[group] ??= {};
    config[group][key] = values[setting.env as string];
  }
  return { config: config as FunctionConfig, problems };
}
