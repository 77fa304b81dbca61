import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import {
  COST_TABLE_COMMAND,
  DEPLOYING_DOC,
  PERFORMANCE_DOC,
  pollingFigure,
  pollingFigures,
  withCostTable,
} from '../../bench/exportCostTable';

const read = (file: string) => readFileSync(join(LOCAL_PROJECT_ROOT, file), 'utf8');

describe("docs/deploying.md's cost table", () => {
  it("is written from docs/performance.md's polling figures", () => {
    // Prepare
    const deploying = read(DEPLOYING_DOC);

    // Act
    const fresh = withCostTable(deploying, read(PERFORMANCE_DOC));

    // Assess
    expect(
      deploying === fresh,
      `${DEPLOYING_DOC}'s cost table disagrees with ${PERFORMANCE_DOC}'s polling table. Run \`${COST_TABLE_COMMAND}\` and commit it.`,
    ).toBe(true);
  });

  it('changes when a polling figure does, so a stale copy cannot pass', () => {
    // Prepare: the 6-hour median with a successor queued, 28 polls (33 transitions), as a bench might move it.
    const performance = read(PERFORMANCE_DOC);
    const moved = performance.replace(
      /^\| 6 h \| stable history, a successor queued \| \d+ \| \d+ \|/m,
      '| 6 h | stable history, a successor queued | 40 | 45 |',
    );

    // Act
    const table = withCostTable(read(DEPLOYING_DOC), moved);

    // Assess
    expect(moved).not.toBe(performance);
    expect(table).not.toBe(read(DEPLOYING_DOC));
    expect(table).toMatch(
      /^\| 6 h \| stable history, a successor queued \| 40 \| 45 \| \$0\.001125 \| 43 \|/m,
    );
  });

  it('prices each export length and loop at the polls and transitions performance.md measured', () => {
    // Prepare
    const figures = pollingFigures(read(PERFORMANCE_DOC)).filter(({ loop }) => loop !== 'naive 30 s loop');
    const rows = [
      ...read(DEPLOYING_DOC).matchAll(/^\| (1 min|10 min|1 h|6 h) \| ([^|]+) \| (\d+) \| (\d+) \|/gm),
    ];

    // Assess: one row per measured row, each at its figures
    expect(rows).toHaveLength(figures.length);
    for (const [, lasts, loop, polls, transitions] of rows) {
      const measured = pollingFigure(figures, lasts as string, (loop as string).trim());
      expect(Number(polls), `${lasts} ${loop}`).toBe(measured.polls);
      expect(Number(transitions), `${lasts} ${loop}`).toBe(measured.transitions);
    }
  });
});

describe("the README's performance figures", () => {
  it("are docs/performance.md's: a one-hour export's polls with nothing waiting and with a successor queued, and the naive loop's", () => {
    // Prepare
    const figures = pollingFigures(read(PERFORMANCE_DOC));
    const readme = read('README.md').replace(/\s+/g, ' ');

    // Act
    const quoted =
      /a one-hour export takes (\d+) polls? \((\d+) state transitions.*?with a successor queued it is polled closely around its expected end, (\d+) polls.*?a fixed 30-second loop takes (\d+) polls/.exec(
        readme,
      );

    // Assess
    expect(quoted, 'the README Performance sentence').not.toBeNull();
    const [, alone, aloneTransitions, queued, naive] = quoted as RegExpExecArray;
    const nothingWaiting = pollingFigure(figures, '1 h', 'stable history, nothing waiting');
    expect(Number(alone)).toBe(nothingWaiting.polls);
    expect(Number(aloneTransitions)).toBe(nothingWaiting.transitions);
    expect(Number(queued)).toBe(pollingFigure(figures, '1 h', 'stable history, a successor queued').polls);
    expect(Number(naive)).toBe(pollingFigure(figures, '1 h', 'naive 30 s loop').polls);
  });
});
