import { describe, expect, it } from 'vitest';
import { itemsWithin } from '../../../../../lib/exports/record/ExportRecord';

describe('itemsWithin', () => {
  it('keeps the leading items whose JSON, with a separator each, fits in the bytes given', () => {
    // Prepare: each link is 10 bytes of JSON ("aaaaaaaa") plus a separator
    const links = ['aaaaaaaa', 'bbbbbbbb', 'cccccccc'];

    // Act / Assess
    expect(itemsWithin(links, 33)).toEqual(links);
    expect(itemsWithin(links, 32)).toEqual(['aaaaaaaa', 'bbbbbbbb']);
    expect(itemsWithin(links, 10)).toEqual([]);
    expect(itemsWithin([], 100)).toEqual([]);
  });

  it('counts bytes, not characters', () => {
    // Act / Assess: "é" is two bytes in UTF-8
    expect(itemsWithin(['éé'], 6)).toEqual([]);
    expect(itemsWithin(['éé'], 7)).toEqual(['éé']);
  });
});
