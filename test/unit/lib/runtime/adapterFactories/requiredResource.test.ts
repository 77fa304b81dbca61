import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../lib/config';
import { requiredResource } from '../../../../../lib/runtime/adapterFactories/requiredResource';

describe('requiredResource', () => {
  it('passes a configured value through, falsy ones included', () => {
    // Act / Assess
    expect(requiredResource('exports-table', 'TABLE_NAME')).toBe('exports-table');
    expect(requiredResource('', 'TABLE_NAME')).toBe('');
  });

  it('refuses a missing one with a configuration error naming its variable', () => {
    // Act
    const attempt = () => requiredResource(undefined, 'ARCHIVE_BUCKET_NAME');

    // Assess
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow('ARCHIVE_BUCKET_NAME is required');
  });
});
