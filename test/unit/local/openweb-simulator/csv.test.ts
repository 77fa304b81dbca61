import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCsv, formatCsvField } from '../../../../local/openweb-simulator/csv';
import { CSV_DELIMITERS } from '../../../../local/openweb-simulator/requestValidation';
import { parseCsv } from '../../../support/parseCsv';

describe('csv', () => {
  it('reads back exactly the rows it wrote, whatever the fields hold, for every allowed delimiter', () => {
    // Prepare
    const field = fc.string({
      unit: fc.constantFrom('a', ' ', ',', ';', '|', '\t', '"', '\r', '\n', 'é', '👍'),
    });
    const rows = fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 });

    // Act + Assess
    fc.assert(
      fc.property(rows, fc.constantFrom(...CSV_DELIMITERS), (written, delimiter) => {
        expect(parseCsv(formatCsv(written, delimiter), delimiter)).toEqual(written);
      }),
    );
  });

  it.each([
    ['plain', ',', 'plain'],
    ['a,b', ',', '"a,b"'],
    ['a,b', ';', 'a,b'],
    ['say "hi"', ',', '"say ""hi"""'],
    ['two\nlines', '|', '"two\nlines"'],
    [' padded ', ',', '" padded "'],
    ['tab\there', '\t', '"tab\there"'],
  ])('formats %j with delimiter %j as %j', (value, delimiter, expected) => {
    // Act
    const formatted = formatCsvField(value, delimiter);

    // Assess
    expect(formatted).toBe(expected);
  });

  it('ends every line with CRLF', () => {
    // Act
    const csv = formatCsv(
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
      ',',
    );

    // Assess
    expect(csv).toBe('a,b\r\nc,d\r\n');
  });
});
