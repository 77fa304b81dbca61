import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFIGURATION_PAGE_COMMAND,
  CONFIGURATION_PAGE_FILE,
  renderConfigurationPage,
} from '../../../infra/configurationPage';
import { PROJECT_ROOT } from '../../../infra/ExportFunction';
import type { Setting } from '../../../lib/settings/Setting';
import { SETTING_DESCRIPTIONS } from '../../../lib/settings/settingDescriptions';
import { SETTINGS, type SettingName } from '../../../lib/settings/settingsTable';

const committedPage = () => readFileSync(join(PROJECT_ROOT, CONFIGURATION_PAGE_FILE), 'utf8');

describe('docs/configuration.md', () => {
  it('is committed as the settings table writes it', () => {
    // Act
    const fresh = renderConfigurationPage();

    // Assess
    expect(
      committedPage() === fresh,
      `${CONFIGURATION_PAGE_FILE} is stale: the settings table changed since it was written. Run \`${CONFIGURATION_PAGE_COMMAND}\` and commit the page.`,
    ).toBe(true);
  });

  it('names every setting of the table by its key or variable, with its description', () => {
    // Act
    const page = renderConfigurationPage();

    // Assess
    for (const key of Object.keys(SETTINGS) as SettingName[]) {
      const setting: Setting = SETTINGS[key];
      const name = setting.path ?? setting.env;
      expect(page, name).toContain(`\`${name}\``);
      expect(page, name).toContain(SETTING_DESCRIPTIONS[key].description);
    }
  });
});
