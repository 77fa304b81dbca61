import { z } from 'zod';
import type { Setting, SettingDefault, SettingValue } from '../lib/settings/Setting';
import { SETTINGS, type SettingName, type Settings } from '../lib/settings/settingsTable';
import { settingFromJson } from '../lib/settings/settingValue';
import { checkScheduleExpression } from './scheduleExpression';

/** The stack configuration's groups of scalar settings (`polling.exportDeadlineSeconds`); auth is structural. */
export type StackSettingGroup = 'polling' | 'coverage' | 'api' | 'archive';

type StackSettingName = { [N in SettingName]: Settings[N] extends { path: string } ? N : never }[SettingName];
type PathOf<N extends StackSettingName> = Settings[N]['path'];
type SettingAt<P extends string> = Settings[{
  [N in StackSettingName]: PathOf<N> extends P ? N : never;
}[StackSettingName]];
type TopLevelPath = {
  [N in StackSettingName]: PathOf<N> extends `${string}.${string}` ? never : PathOf<N>;
}[StackSettingName];
type KeyIn<G extends string> = {
  [N in StackSettingName]: PathOf<N> extends `${G}.${infer K}` ? K : never;
}[StackSettingName];

/** Once parsed: set, defaulted, or (without a default, or left to the functions' default) undefined. */
type ParsedValue<S extends Setting> =
  | SettingValue<S>
  | (S extends { default: SettingDefault }
      ? S extends { optionalInStack: true }
        ? undefined
        : never
      : undefined);

/** The scalar settings of the stack configuration as written: every key optional. */
export type StackSettingsInput = { [P in TopLevelPath]?: SettingValue<SettingAt<P>> } & {
  [G in StackSettingGroup]?: { [K in KeyIn<G>]?: SettingValue<SettingAt<`${G}.${K}`>> };
};

/** The scalar settings of the stack configuration, checked, defaults filled in. */
export type StackSettings = { [P in TopLevelPath]: ParsedValue<SettingAt<P>> } & {
  [G in StackSettingGroup]: { [K in KeyIn<G>]: ParsedValue<SettingAt<`${G}.${K}`>> };
};

const ALL_SETTINGS = Object.values(SETTINGS as Record<string, Setting>);

/** The message of a schedule setting Scheduler would refuse. */
function scheduleMessage(forms: readonly string[], reason: string): string {
  return forms.includes('cron')
    ? `must be an EventBridge Scheduler expression, cron(<6 fields>) or rate(<n> <unit>): ${reason}`
    : `must be a rate expression such as rate(5 minutes) or rate(1 hour): ${reason}`;
}

/** One setting's value in the stack configuration, checked as the table says (the same checks as its variable). */
export function stackSettingValue<S extends Setting>(
  setting: S,
): z.ZodType<SettingValue<S>, SettingValue<S>> {
  const checked = z.unknown().transform((value, context) => {
    const check = settingFromJson(setting, value);
    if (!check.ok) {
      for (const issue of check.issues) {
        context.addIssue({ code: 'custom', message: issue.message, path: [...(issue.path ?? [])] });
      }
      return z.NEVER;
    }
    const { kind } = setting;
    if (kind.type === 'schedule') {
      const schedule = checkScheduleExpression(check.value as string, kind.forms);
      if (!schedule.ok) {
        context.addIssue({ code: 'custom', message: scheduleMessage(kind.forms, schedule.reason) });
        return z.NEVER;
      }
    }
    return check.value;
  });
  return checked as unknown as z.ZodType<SettingValue<S>, SettingValue<S>>;
}

/** One setting as a key of the stack configuration: optional, its default filled in unless the functions keep it. */
function stackSettingSchema(setting: Setting): z.ZodType {
  const value = stackSettingValue(setting);
  return setting.default === undefined || setting.optionalInStack === true
    ? value.optional()
    : value.default(setting.default as never);
}

/** The settings at the top of the stack configuration (no group), or in `group`, by key. */
export function stackSettingsShape(group?: StackSettingGroup): Record<string, z.ZodType> {
  const prefix = group === undefined ? '' : `${group}.`;
  return Object.fromEntries(
    ALL_SETTINGS.flatMap((setting) => {
      const key = setting.path?.startsWith(prefix) ? setting.path.slice(prefix.length) : undefined;
      return key === undefined || key.includes('.') ? [] : [[key, stackSettingSchema(setting)]];
    }),
  );
}
