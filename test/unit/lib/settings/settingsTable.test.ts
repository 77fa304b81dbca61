import { describe, expect, it } from 'vitest';
import type { Setting } from '../../../../lib/settings/Setting';
import { SETTINGS } from '../../../../lib/settings/settingsTable';
import { settingFromJson, settingFromText, settingText } from '../../../../lib/settings/settingValue';

const ROWS = Object.entries(SETTINGS as Record<string, Setting>);

/** The default as an environment variable holds it. */
function defaultText(setting: Setting): string {
  const { kind } = setting;
  if (kind.type === 'boolean' && kind.words !== undefined)
    return kind.words[setting.default === true ? 0 : 1];
  return settingText(setting.default) as string;
}

describe('the settings table', () => {
  it('names each environment variable and each stack configuration key once', () => {
    // Act
    const variables = ROWS.flatMap(([, setting]) => (setting.env === undefined ? [] : [setting.env]));
    const paths = ROWS.flatMap(([, setting]) => (setting.path === undefined ? [] : [setting.path]));

    // Assess
    expect(variables.length).toBeGreaterThan(0);
    expect(new Set(variables).size).toBe(variables.length);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.each(ROWS.filter(([, setting]) => setting.default !== undefined))(
    'gives %s a default it accepts, in the stack configuration and in the environment',
    (_name, setting) => {
      // Act
      const fromJson = setting.path === undefined ? undefined : settingFromJson(setting, setting.default);
      const fromText = setting.env === undefined ? undefined : settingFromText(setting, defaultText(setting));

      // Assess
      if (fromJson !== undefined) expect(fromJson).toEqual({ ok: true, value: setting.default });
      if (fromText !== undefined) expect(fromText).toEqual({ ok: true, value: setting.default });
      expect(fromJson ?? fromText).toBeDefined();
    },
  );

  it.each(ROWS)('places %s in a scope it fits', (_name, setting) => {
    // Act
    const { scope } = setting;

    // Assess: a resource is named by the stack; a local setting is read by `npm start` only; a
    // deployment setting has a key, a variable, or both.
    if (scope === 'resource')
      expect(setting).toMatchObject({ env: expect.any(String), readBy: expect.any(String) });
    if (scope !== 'deployment') expect(setting.path).toBeUndefined();
    if (scope === 'deployment') expect(setting.path ?? setting.env).toBeDefined();
    if (setting.readBy !== undefined) expect(setting.env).toBeDefined();
    if (setting.writtenAsDefault === true) {
      expect(setting.default).toBeDefined();
      expect(setting.path).toBeUndefined();
      expect(setting.readBy).toBeDefined();
    }
    if (setting.optionalInStack === true) expect(setting.path).toBeDefined();
  });

  it.each(ROWS)('gives %s the unit its name says', (_name, setting) => {
    // Prepare
    const name = setting.path ?? setting.env ?? '';

    // Act
    const unit = /(Seconds|_SECONDS)$/.test(name)
      ? 'seconds'
      : /(Ms|_MS)$/.test(name)
        ? 'milliseconds'
        : /(Days|_DAYS)$/.test(name)
          ? 'days'
          : setting.unit;

    // Assess
    expect(setting.unit).toBe(unit);
  });

  it("places every variable the functions read themselves in the functions' configuration, each in its own place", () => {
    // Act
    const read = ROWS.filter(
      ([, setting]) => setting.readBy !== undefined && setting.readByPowertools !== true,
    );
    const places = ROWS.flatMap(([, setting]) => (setting.config === undefined ? [] : [setting.config]));

    // Assess
    expect(read.filter(([, setting]) => setting.config === undefined).map(([name]) => name)).toEqual([]);
    expect(places).toHaveLength(read.length);
    expect(new Set(places).size).toBe(places.length);
  });

  it('scales only durations of the export lifecycle with the local time scale', () => {
    // Act
    const scaled = ROWS.filter(([, setting]) => setting.timeScaled === true);

    // Assess
    expect(scaled.length).toBeGreaterThan(0);
    for (const [name, setting] of scaled) {
      expect(setting.config, name).toMatch(/^exports\./);
      expect(setting.unit, name).toBe('seconds');
    }
  });
});
