import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import {
  BENCH_ROWS,
  BENCH_TABLE_END,
  BENCH_TABLE_START,
  benchFigures,
  SCALING_DOC,
  SCALING_TABLE_COMMAND,
  withScalingTable,
} from '../../bench/scalingTable';

const read = (file: string) => readFileSync(join(LOCAL_PROJECT_ROOT, file), 'utf8');

/** The fleet table's rows of docs/scaling.md, by label: the figures of each N, in column order. */
function fleetTable(markdown: string): { sizes: number[]; rows: Map<string, number[]> } {
  const lines = markdown
    .slice(markdown.indexOf(BENCH_TABLE_START), markdown.indexOf(BENCH_TABLE_END))
    .split('\n')
    .filter((line) => line.startsWith('|'));
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  const sizes = cells(lines[0] ?? '')
    .slice(1)
    .map((cell) => Number(cell.replace(/[^\d]/g, '')));
  const rows = new Map(
    lines.slice(2).map((line) => {
      const [label, ...values] = cells(line);
      return [label ?? '', values.map(Number)];
    }),
  );
  return { sizes, rows };
}

describe("docs/scaling.md's extrapolation table", () => {
  it('is written from the fleet table in the same document', () => {
    // Prepare
    const scaling = read(SCALING_DOC);

    // Act
    const fresh = withScalingTable(scaling);

    // Assess
    expect(
      scaling === fresh,
      `${SCALING_DOC}'s extrapolation table disagrees with its fleet table. Run \`${SCALING_TABLE_COMMAND}\` and commit it.`,
    ).toBe(true);
  });

  it('changes when a bench figure does, so a stale copy cannot pass', () => {
    // Prepare: twice the transitions per spot-day at the largest N
    const scaling = read(SCALING_DOC);
    const { transitions, spots } = benchFigures(scaling);
    const moved = scaling.replace(new RegExp(`^\\| ${BENCH_ROWS.transitions} \\|.*\\|$`, 'm'), (row) =>
      row.replace(/\| ([\d.]+)(?= \|)/g, (_cell, value: string) => `| ${(2 * Number(value)).toFixed(1)}`),
    );

    // Act
    const rewritten = withScalingTable(moved);

    // Assess
    expect(moved).not.toBe(scaling);
    expect(benchFigures(moved)).toMatchObject({ spots, transitions: 2 * transitions });
    expect(rewritten).not.toBe(moved);
    expect(rewritten).toContain(`${2 * transitions} transitions a day`);
  });
});

describe("docs/scaling.md's fleet table", () => {
  it('has a run per N (10, 100, …), no window exported twice in any, and per spot-day work within ± 10 % across the runs that met their goals', () => {
    // Prepare
    const { sizes, rows } = fleetTable(read(SCALING_DOC));
    const met = sizes.flatMap((_size, index) =>
      rows.get('gaps')?.[index] === 0 && rows.get('windows exported twice')?.[index] === 0 ? [index] : [],
    );

    // Assess
    expect(sizes.slice(0, 2)).toEqual([10, 100]);
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
    expect(rows.get('windows exported twice')).toEqual(sizes.map(() => 0));
    expect(met.length).toBeGreaterThan(0);
    const flat = [...rows].filter(
      ([label]) =>
        label.endsWith('per spot-day') &&
        !label.startsWith('upstream auth') &&
        !label.startsWith('most-written'),
    );
    expect(flat.length).toBeGreaterThan(5);
    for (const [label, values] of flat) {
      const base = values[met[0] as number] as number;
      for (const index of met.slice(1))
        expect(Math.abs((values[index] as number) / base - 1), label).toBeLessThanOrEqual(0.1);
    }
  });
});
