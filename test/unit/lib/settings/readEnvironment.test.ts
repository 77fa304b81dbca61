import { describe, expect, it } from 'vitest';
import { readEnvironment } from '../../../../lib/settings/readEnvironment';
import type { Setting } from '../../../../lib/settings/Setting';

const PORT: Setting = {
  env: 'PORT',
  scope: 'local',
  kind: { type: 'integer', min: 0, max: 65_535 },
  default: 3000,
};
const LEVEL: Setting = {
  env: 'LOG_LEVEL',
  overridingEnv: 'POWERTOOLS_LOG_LEVEL',
  scope: 'local',
  kind: { type: 'enum', values: ['DEBUG', 'WARN'], ignoreCase: true },
  default: 'WARN',
};
const LIMIT: Setting = {
  env: 'LIMIT',
  scope: 'deployment',
  kind: { type: 'number', min: 0, minExclusive: true, max: 10 },
};

describe('readEnvironment', () => {
  it('takes the defaults of unset, empty and blank variables, and leaves a setting without one undefined', () => {
    // Act
    const { values, problems } = readEnvironment([PORT, LEVEL, LIMIT], { PORT: ' ', LOG_LEVEL: '' });

    // Assess
    expect(problems).toEqual([]);
    expect(values).toEqual({ PORT: 3000, LOG_LEVEL: 'WARN', LIMIT: undefined });
  });

  it('reads the overriding variable first', () => {
    // Act
    const { values } = readEnvironment([LEVEL], { LOG_LEVEL: 'warn', POWERTOOLS_LOG_LEVEL: 'debug' });

    // Assess
    expect(values).toEqual({ LOG_LEVEL: 'DEBUG' });
  });

  it('names every bad variable, by the name it was set under', () => {
    // Act
    const { problems } = readEnvironment([PORT, LEVEL, LIMIT], {
      PORT: '70000',
      POWERTOOLS_LOG_LEVEL: 'chatty',
      LIMIT: '0',
    });

    // Assess
    expect(problems).toEqual([
      'PORT must be at most 65535',
      'POWERTOOLS_LOG_LEVEL must be one of DEBUG, WARN',
      'LIMIT must be greater than 0',
    ]);
  });

  it('leaves the defaults out when told to', () => {
    // Act
    const { values } = readEnvironment([PORT, LEVEL], {}, { applyDefault: (setting) => setting !== PORT });

    // Assess
    expect(values).toEqual({ PORT: undefined, LOG_LEVEL: 'WARN' });
  });
});
