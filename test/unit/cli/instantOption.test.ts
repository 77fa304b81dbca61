import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../cli/errors';
import { instantOption, offsetInstantNotes } from '../../../cli/instantOption';

describe('instantOption', () => {
  it.each([
    ['2026-11-20T00:00:00Z', '2026-11-20T00:00:00Z'],
    ['2026-11-20', '2026-11-20T00:00:00Z'],
    ['2026-11-20T00:00:00+02:00', '2026-11-19T22:00:00Z'],
    ['2026-11-19T19:30:00-05:30', '2026-11-20T01:00:00Z'],
    ['2026-01-01T01:00:00+01:00', '2026-01-01T00:00:00Z'],
    ['2026-11-20T00:00:00-00:00', '2026-11-20T00:00:00Z'],
  ])('reads %s as %s', (text, utc) => {
    // Act
    const instant = instantOption('from', text, 'start');

    // Assess
    expect(instant).toBe(utc);
  });

  it.each([
    '2026-11-20T00:00:00',
    '2026-11-20T00:00:00.000Z',
    '2026-02-30T00:00:00+02:00',
    '2026-11-20T24:00:00+02:00',
    '2026-11-20T00:00:00+24:00',
    '2026-11-20T00:00:00+0200',
    'yesterday',
  ])('refuses %s, naming the forms it takes', (text) => {
    // Act
    const act = () => instantOption('from', text, 'start');

    // Assess
    expect(act).toThrow(CliUsageError);
    expect(act).toThrow(
      `--from '${text}' must be a UTC time like 2026-01-31T00:00:00Z, a time with its offset like 2026-01-31T02:00:00+02:00, or a date like 2026-01-31 (midnight UTC)`,
    );
  });
});

describe('offsetInstantNotes', () => {
  it('says which UTC instant each option given with an offset means, and nothing for UTC or dates', () => {
    // Act
    const notes = offsetInstantNotes({ from: '2026-11-20T00:00:00+02:00', until: '2026-11-21' }, [
      'from',
      'until',
    ]);

    // Assess
    expect(notes).toEqual(['--from 2026-11-20T00:00:00+02:00 is 2026-11-19T22:00:00Z (UTC)']);
  });
});
