import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CsvUserRowFilter } from '../../../../lib/archive/CsvUserRowFilter';
import { formatCsv } from '../../../../local/openweb-simulator/csv';
import { parseCsv } from '../../../support/parseCsv';

/** Feeds `text` in chunks of `chunkBytes`, so records and quotes straddle chunk boundaries. */
async function filtered(
  text: string,
  userIds: string[],
  chunkBytes = 3,
  delimiter = ',',
): Promise<{ text: string; removed: number; kept: number }> {
  const bytes = Buffer.from(text, 'utf8');
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunkBytes) }, (_, index) =>
    bytes.subarray(index * chunkBytes, (index + 1) * chunkBytes),
  );
  const filter = new CsvUserRowFilter({ delimiter, userIds: new Set(userIds) });
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), filter, async (source) => {
    for await (const chunk of source) out.push(chunk as Buffer);
  });
  return { text: Buffer.concat(out).toString('utf8'), removed: filter.removed, kept: filter.kept };
}

describe('CsvUserRowFilter', () => {
  it("leaves out the user's records and passes every other byte unchanged", async () => {
    const text = 'id,user_id,content\r\n1,u_1,a\r\n2,u_2,"b\r\nu_1"\r\n3,u_1,"x ""y"""\r\n4,u_3,c\r\n';
    for (const chunkBytes of [1, 2, 3, 7, 1000]) {
      const result = await filtered(text, ['u_1'], chunkBytes);
      expect(result.text).toBe('id,user_id,content\r\n2,u_2,"b\r\nu_1"\r\n4,u_3,c\r\n');
      expect(result).toMatchObject({ removed: 2, kept: 2 });
    }
  });

  it('passes a file without the user byte for byte, and drops a last record without a line break', async () => {
    const text = '\uFEFFid;user_id\n1;u_2\n\n2;u_1';
    expect(await filtered(text, ['u_9'], 2, ';')).toEqual({ text, removed: 0, kept: 2 });
    expect(await filtered(text, ['u_1'], 2, ';')).toEqual({
      text: '\uFEFFid;user_id\n1;u_2\n\n',
      removed: 1,
      kept: 1,
    });
  });

  it('leaves the header alone when every row was the user’s, and passes a file with no user_id column whole', async () => {
    expect(await filtered('id,user_id\n1,u_1\n2,u_1\n', ['u_1'])).toEqual({
      text: 'id,user_id\n',
      removed: 2,
      kept: 0,
    });
    const noColumn = 'id,author\n1,u_1\n';
    expect(await filtered(noColumn, ['u_1'])).toEqual({ text: noColumn, removed: 0, kept: 1 });
  });

  it('agrees with a full CSV parser on generated rows full of quotes, delimiters and line breaks', async () => {
    const rows = [
      ['id', 'user_id', 'text'],
      ...Array.from({ length: 300 }, (_, index) => [
        String(index),
        `u_${index % 7}`,
        index % 3 === 0 ? `multi\r\nline "u_3"; ok` : index % 3 === 1 ? 'plain u_3' : 'zoë, "q"',
      ]),
    ];
    const text = formatCsv(rows, ',');
    const result = await filtered(text, ['u_3', 'u_5'], 5);
    const expected = parseCsv(text, ',').filter(
      (row, index) => index === 0 || !['u_3', 'u_5'].includes(row[1] ?? ''),
    );
    expect(parseCsv(result.text, ',')).toEqual(expected);
    expect(result.removed).toBe(rows.length - expected.length);
  });
});
