import { describe, expect, it } from 'vitest';
import { isValidExportId, newExportId } from '../../../../../lib/exports/record/exportId';

describe('newExportId', () => {
  it('is ex_ plus 26 URL-safe Crockford base32 characters', () => {
    // Act
    const id = newExportId();

    // Assess
    expect(id).toMatch(/^ex_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(encodeURIComponent(id)).toBe(id);
    expect(isValidExportId(id)).toBe(true);
  });

  it('sorts by creation time across milliseconds', () => {
    // Prepare
    const instants = [0, 1, 31, 32, 1_000, 1_700_000_000_000, 1_700_000_000_001, 4_102_444_800_000];

    // Act
    const ids = instants.map((instant) => newExportId(instant));

    // Assess
    expect([...ids].sort()).toEqual(ids);
  });

  it('encodes the same millisecond to the same prefix and differs in the random part', () => {
    // Act
    const ids = Array.from({ length: 1000 }, () => newExportId(1_700_000_000_000));

    // Assess
    expect(new Set(ids.map((id) => id.slice(0, 13))).size).toBe(1);
    expect(new Set(ids).size).toBe(1000);
  });
});

describe('isValidExportId', () => {
  it.each([
    ['missing prefix', '01hf0000000000000000000000'],
    ['too short', 'ex_01hf'],
    ['upper case', 'EX_01HF0000000000000000000000'],
    ['excluded letter u', 'ex_01hf000000000000000000000u'],
    ['not a string', 42],
  ])('rejects %s', (_case, value) => {
    // Assess
    expect(isValidExportId(value)).toBe(false);
  });
});
