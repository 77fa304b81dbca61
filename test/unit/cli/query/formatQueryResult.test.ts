import { describe, expect, it } from 'vitest';
import { formatQueryResult, MAX_TABLE_CELL_CHARS } from '../../../../cli/query/formatQueryResult';
import { ColumnKind, type QueryResult } from '../../../../cli/query/QueryResult';

const TEXT = { type: 'VARCHAR', kind: ColumnKind.TEXT };

describe('formatQueryResult', () => {
  it('keeps each row on one line in a table: line breaks, tabs and backslashes shown, wide characters aligned', () => {
    // Prepare
    const result: QueryResult = {
      columns: [
        { name: 'user_name', ...TEXT },
        { name: 'content', ...TEXT },
      ],
      rows: [
        ['李雷 7', 'First line\nsecond\tline'],
        ['Ada 1', 'C:\\path\r\n'],
      ],
    };

    // Act
    const table = formatQueryResult(result, 'table');

    // Assess
    expect(table).toBe(
      [
        'user_name  content',
        '---------  ------------------------',
        '李雷 7     First line\\nsecond\\tline',
        'Ada 1      C:\\\\path\\r\\n',
        '',
      ].join('\n'),
    );
  });

  it(`cuts a table cell past ${MAX_TABLE_CELL_CHARS} characters, and only in tables`, () => {
    // Prepare
    const long = 'x'.repeat(MAX_TABLE_CELL_CHARS + 10);
    const result: QueryResult = { columns: [{ name: 'content', ...TEXT }], rows: [[long]] };

    // Act
    const table = formatQueryResult(result, 'table');
    const csv = formatQueryResult(result, 'csv');

    // Assess
    expect(table.split('\n')[2]).toBe(`${'x'.repeat(MAX_TABLE_CELL_CHARS - 1)}…`);
    expect(csv).toBe(`content\n${long}\n`);
  });

  it('tells null from an empty string in CSV and JSON', () => {
    // Prepare
    const result: QueryResult = { columns: [{ name: 'content', ...TEXT }], rows: [[''], [null]] };

    // Act
    const csv = formatQueryResult(result, 'csv');
    const json = JSON.parse(formatQueryResult(result, 'json'));

    // Assess
    expect(csv).toBe('content\n""\n\n');
    expect(json).toEqual([{ content: '' }, { content: null }]);
  });

  it('writes JSON numbers and booleans, keeping integers JavaScript cannot hold exactly as text', () => {
    // Prepare
    const result: QueryResult = {
      columns: [
        { name: 'n', type: 'BIGINT', kind: ColumnKind.INTEGER },
        { name: 'big', type: 'BIGINT', kind: ColumnKind.INTEGER },
        { name: 'ok', type: 'BOOLEAN', kind: ColumnKind.BOOLEAN },
        { name: 'amount', type: 'DECIMAL(10,2)', kind: ColumnKind.DECIMAL },
      ],
      rows: [['42', '9223372036854775807', 'true', '12.50']],
    };

    // Act
    const json = JSON.parse(formatQueryResult(result, 'json'));

    // Assess
    expect(json).toEqual([{ n: 42, big: '9223372036854775807', ok: true, amount: '12.50' }]);
  });
});
