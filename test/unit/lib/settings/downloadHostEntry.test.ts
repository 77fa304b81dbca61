import { describe, expect, it } from 'vitest';
import { isDownloadHostEntry } from '../../../../lib/settings/downloadHostEntry';

describe('isDownloadHostEntry', () => {
  it.each([
    'exports.openweb.com',
    'localhost',
    '127.0.0.1:9000',
    'exports.example.com:443',
    '*.cloudfront.net',
    '*.s3.amazonaws.com',
  ])('accepts %s', (entry) => {
    // Act / Assess
    expect(isDownloadHostEntry(entry)).toBe(true);
  });

  it.each([
    ['a wildcard over a top-level domain', '*.com'],
    ['a wildcard inside the name', 'exports.*.com'],
    ['upper case', 'Exports.OpenWeb.com'],
    ['a port past 65535', 'localhost:65536'],
    ['a scheme', 'https://exports.openweb.com'],
    ['a path', 'exports.openweb.com/files'],
    ['a label ending in a hyphen', 'exports-.openweb.com'],
    ['nothing', ''],
  ])('refuses %s', (_reason, entry) => {
    // Act / Assess
    expect(isDownloadHostEntry(entry)).toBe(false);
  });
});
