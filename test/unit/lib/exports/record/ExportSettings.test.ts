import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXPORT_SETTINGS,
  FIXED_EXPORT_SETTINGS,
} from '../../../../../lib/exports/record/ExportSettings';
import { readFunctionConfig } from '../../../../../lib/settings/functionConfig';
import { SETTINGS } from '../../../../../lib/settings/settingsTable';

describe('DEFAULT_EXPORT_SETTINGS', () => {
  it('holds every configurable lifecycle setting at its table default, and the fixed ones', () => {
    // Act / Assess
    expect(DEFAULT_EXPORT_SETTINGS).toEqual({
      ...readFunctionConfig({}).config.exports,
      ...FIXED_EXPORT_SETTINGS,
    });
    expect(DEFAULT_EXPORT_SETTINGS.windowRetryCooldownSeconds).toBe(
      SETTINGS.windowRetryCooldownSeconds.default,
    );
    expect(DEFAULT_EXPORT_SETTINGS.archiving).toBe(true);
  });

  it("fixes the start lock's lease at 5 minutes and a create claim's timeout at 2", () => {
    // Act / Assess
    expect(FIXED_EXPORT_SETTINGS.startLockLeaseSeconds).toBe(300);
    expect(FIXED_EXPORT_SETTINGS.createClaimTimeoutSeconds).toBe(120);
  });
});
