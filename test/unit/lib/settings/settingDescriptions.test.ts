import { describe, expect, it } from 'vitest';
import type { Setting } from '../../../../lib/settings/Setting';
import { SETTING_DESCRIPTIONS } from '../../../../lib/settings/settingDescriptions';
import { SETTINGS, type SettingName } from '../../../../lib/settings/settingsTable';

const NAMES = Object.keys(SETTINGS) as SettingName[];

describe('the settings descriptions', () => {
  it('describe every setting of the table, and nothing else', () => {
    // Act
    const described = Object.keys(SETTING_DESCRIPTIONS);

    // Assess
    expect(described.sort()).toEqual([...NAMES].sort());
  });

  it.each(NAMES)('describe %s in one sentence', (name) => {
    // Act
    const { description } = SETTING_DESCRIPTIONS[name];

    // Assess
    expect(description).toMatch(/^[A-Z`].*\.$/);
    expect(description).not.toMatch(/\.\s+[A-Z]/);
  });

  it('say what unset means for a setting without a default, where unset is not simply none', () => {
    // Act
    const unexplained = NAMES.filter((name) => {
      const setting: Setting = SETTINGS[name];
      return (
        setting.default === undefined &&
        SETTING_DESCRIPTIONS[name].defaultText === undefined &&
        setting.scope !== 'resource'
      );
    });

    // Assess
    expect(unexplained).toEqual([]);
  });
});
