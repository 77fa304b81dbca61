import { describe, expect, it } from 'vitest';
import { archiveManifest } from '../../../../lib/archive/archiveManifest';
import { COMMENT_TABLE_COLUMNS } from '../../../../lib/archive/parquet/commentTableSchema';
import { COMMENT_ROWS_TABLE_NAME } from '../../../../lib/lake/commentRowsTable';

const FILE = {
  name: 'comments-1.csv',
  key: 'exports/spot=sp_a/date=2026-10-01/ex_1/1.csv.gz',
  bytes: 100,
  sha256: 'ab',
  rows: 3,
  sourceLink: 1,
};

describe('archiveManifest', () => {
  it('lists the files alone when no table is written', () => {
    // Act / Assess
    expect(archiveManifest([FILE], { writeTable: false })).toEqual({ files: [FILE] });
  });

  it("describes the Parquet files' table, columns in order and partition columns when the table is written", () => {
    // Act
    const manifest = archiveManifest([FILE], { writeTable: true });

    // Assess
    expect(manifest.files).toEqual([FILE]);
    expect(manifest.parquetSchema?.table).toBe(COMMENT_ROWS_TABLE_NAME);
    expect(manifest.parquetSchema?.columns.map((column) => column.name)).toEqual(
      COMMENT_TABLE_COLUMNS.map((column) => column.name),
    );
    expect(
      manifest.parquetSchema?.columns.every((column) => Object.keys(column).join() === 'name,type'),
    ).toBe(true);
    expect(manifest.parquetSchema?.partitionColumns).toEqual(['spot', 'date']);
  });
});
