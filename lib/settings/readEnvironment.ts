import type { Setting } from './Setting';
import { settingFromText } from './settingValue';

export interface EnvironmentReading {
  /** By variable name; undefined for a variable unset without a default. */
  values: Record<string, unknown>;
  /** `<VARIABLE> <what is wrong>`, one per bad variable. */
  problems: string[];
}

export interface ReadEnvironmentOptions {
  /** Whether an unset variable takes the setting's default (default: always). */
  applyDefault?: (setting: Setting) => boolean;
}

/**
 * The settings' variables, read from `env` and checked against the table. Empty and blank
 * values count as unset. Every bad variable is reported, not only the first.
 */
export function readEnvironment(
  settings: Iterable<Setting>,
  env: Readonly<Record<string, string | undefined>>,
  options: ReadEnvironmentOptions = {},
): EnvironmentReading {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const setting of settings) {
    if (setting.env === undefined) continue;
    const [variable, text] = presentVariable(setting, env);
    if (text === undefined) {
      const useDefault = options.applyDefault?.(setting) ?? true;
      values[setting.env] = useDefault ? setting.default : undefined;
      continue;
    }
    const check = settingFromText(setting, text);
    if (check.ok) values[setting.env] = check.value;
    else problems.push(...check.issues.map((issue) => `${variable} ${issue.message}`));
  }
  return { values, problems };
}

/** The variable that sets `setting` in `env` and its text, the overriding name first. */
function presentVariable(
  setting: Setting,
  env: Readonly<Record<string, string | undefined>>,
): [string, string | undefined] {
  for (const variable of [setting.overridingEnv, setting.env]) {
    if (variable === undefined) continue;
    const text = env[variable];
    if (text !== undefined && text.trim() !== '') return [variable, text];
  }
  return [setting.env as string, undefined];
}
