import { readEnvironment } from './readEnvironment';
import type { HasDefault, Setting, SettingValue } from './Setting';
import { SETTINGS, type SettingName, type Settings } from './settingsTable';

/** The settings the functions' configuration reads from their environment (Powertools reads its own). */
type FunctionSettingName = {
  [N in SettingName]: Settings[N] extends { readBy: string; readByPowertools: true }
    ? never
    : Settings[N] extends { readBy: string }
      ? N
      : never;
}[SettingName];

/**
 * A local setting's default is `npm start`'s, which passes the variable on to the handlers;
 * deployed, such a variable is unset and the functions take none.
 */
type FunctionValue<S extends Setting> =
  | SettingValue<S>
  | (HasDefault<S> extends true ? (S['scope'] extends 'local' ? undefined : never) : undefined);

/** The functions' settings by variable name, typed from the table. */
export type FunctionSettingValues = {
  [N in FunctionSettingName as Settings[N] extends { env: infer E extends string }
    ? E
    : never]: FunctionValue<Settings[N]>;
};

const FUNCTION_SETTINGS: readonly Setting[] = Object.values(SETTINGS as Record<string, Setting>).filter(
  (setting) => setting.readBy !== undefined && setting.readByPowertools !== true,
);

/** The functions' environment, checked against the table: the values, or a problem per bad variable. */
export function readFunctionSettings(env: Readonly<Record<string, string | undefined>>): {
  values: FunctionSettingValues;
  problems: string[];
} {
  const { values, problems } = readEnvironment(FUNCTION_SETTINGS, env, {
    applyDefault: (setting) => setting.scope !== 'local',
  });
  return { values: values as FunctionSettingValues, problems };
}
