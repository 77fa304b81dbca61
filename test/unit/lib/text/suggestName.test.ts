import { describe, expect, it } from 'vitest';
import { editDistance, suggestName } from '../../../../lib/text/suggestName';

const COMMANDS = ['start', 'status', 'watch', 'abort', 'list'];

describe('suggestName', () => {
  it.each([
    ['stat', COMMANDS, 'status'],
    ['strat', COMMANDS, 'start'],
    ['wacth', COMMANDS, 'watch'],
    ['lst', COMMANDS, 'list'],
    ['wiat', ['wait', 'spot', 'api', 'json'], 'wait'],
    ['interval', ['interval-seconds', 'idempotency-key'], 'interval-seconds'],
    ['export', COMMANDS, undefined],
    ['x', COMMANDS, undefined],
  ])('suggests for %s', (typo, names, expected) => {
    expect(suggestName(typo, names)).toBe(expected);
  });

  it('counts a swap of neighbouring letters as one edit', () => {
    expect(editDistance('wiat', 'wait')).toBe(1);
    expect(editDistance('stat', 'status')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
