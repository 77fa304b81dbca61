import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPORT_STATUSES, ExportStatus, isTerminal } from '../../../../../lib/exports/record/ExportStatus';
import { IllegalTransitionError } from '../../../../../lib/exports/record/errors';
import {
  assertTransition,
  canTransition,
  legalSourcesOf,
} from '../../../../../lib/exports/record/exportTransitions';

const { QUEUED, REQUESTED, PROCESSING, COMPLETED, FAILED, ABORTING, ABORTED } = ExportStatus;

// Written out independently of the implementation: every legal pair, nothing else.
const LEGAL_PAIRS = new Set([
  `${QUEUED}>${QUEUED}`,
  `${QUEUED}>${REQUESTED}`,
  `${QUEUED}>${ABORTED}`,
  `${REQUESTED}>${REQUESTED}`,
  `${REQUESTED}>${PROCESSING}`,
  `${REQUESTED}>${FAILED}`,
  `${REQUESTED}>${ABORTING}`,
  `${REQUESTED}>${ABORTED}`,
  `${PROCESSING}>${PROCESSING}`,
  `${PROCESSING}>${COMPLETED}`,
  `${PROCESSING}>${FAILED}`,
  `${PROCESSING}>${ABORTING}`,
  `${PROCESSING}>${ABORTED}`,
  `${ABORTING}>${ABORTING}`,
  `${ABORTING}>${COMPLETED}`,
  `${ABORTING}>${FAILED}`,
  `${ABORTING}>${ABORTED}`,
]);

const ALL_PAIRS = EXPORT_STATUSES.flatMap((from) =>
  EXPORT_STATUSES.map((to) => ({ from, to, legal: LEGAL_PAIRS.has(`${from}>${to}`) })),
);

describe('canTransition', () => {
  it.each(ALL_PAIRS)('$from → $to is legal: $legal', ({ from, to, legal }) => {
    // Act
    const result = canTransition(from, to);

    // Assess
    expect(result).toBe(legal);
  });

  it('never lets a terminal state change, not even to itself', () => {
    // Prepare
    const terminal = EXPORT_STATUSES.filter(isTerminal);

    // Act
    const anyAllowed = terminal.some((from) => EXPORT_STATUSES.some((to) => canTransition(from, to)));

    // Assess
    expect(terminal).toEqual([COMPLETED, FAILED, ABORTED]);
    expect(anyAllowed).toBe(false);
  });

  it('keeps every reachable sequence terminal once a terminal state is reached', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXPORT_STATUSES),
        fc.array(fc.constantFrom(...EXPORT_STATUSES), { maxLength: 40 }),
        (start, attempts) => {
          // Act
          let state = start;
          let reachedTerminal = isTerminal(state) ? state : undefined;
          for (const to of attempts) {
            if (canTransition(state, to)) state = to;
            if (reachedTerminal !== undefined) expect(state).toBe(reachedTerminal);
            if (isTerminal(state)) reachedTerminal ??= state;
          }

          // Assess
          if (reachedTerminal !== undefined) expect(state).toBe(reachedTerminal);
        },
      ),
    );
  });
});

describe('assertTransition', () => {
  it('returns quietly for a legal transition', () => {
    // Act / Assess
    expect(() => assertTransition(PROCESSING, COMPLETED, 'ex_1')).not.toThrow();
  });

  it('throws IllegalTransitionError carrying from, to and the export id', () => {
    // Act
    const thrown = catchError(() => assertTransition(COMPLETED, ABORTING, 'ex_1'));

    // Assess
    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toMatchObject({
      name: 'IllegalTransitionError',
      from: COMPLETED,
      to: ABORTING,
      exportId: 'ex_1',
      current: undefined,
    });
  });
});

describe('legalSourcesOf', () => {
  it.each(EXPORT_STATUSES)('lists exactly the states that may reach %s', (to) => {
    // Act
    const sources = legalSourcesOf(to);

    // Assess
    expect(sources).toEqual(EXPORT_STATUSES.filter((from) => LEGAL_PAIRS.has(`${from}>${to}`)));
  });
});

function catchError(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}
