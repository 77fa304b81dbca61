import { describe, expect, it } from 'vitest';
import {
  expectedEndWindow,
  MAX_EXPECTED_END_SECONDS,
  UNKNOWN_START_EARLY_SHARE,
} from '../../../../../lib/exports/lifecycle/expectedExportDuration';
import type { ExportRequest } from '../../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';

const STARTED_MS = Date.parse('2026-05-01T00:00:00Z');
const SIX_HOURS: ExportRequest = {
  kind: 'dateRange',
  from: '2026-04-01T00:00:00Z',
  until: '2026-04-01T06:00:00Z',
};
const ONE_HOUR: ExportRequest = {
  kind: 'dateRange',
  from: '2026-04-02T00:00:00Z',
  until: '2026-04-02T01:00:00Z',
};

/** A completed export seen processing `seenSeconds` after its start (if at all) and done at `doneSeconds`. */
function completed(doneSeconds: number, seenSeconds?: number, request: ExportRequest = SIX_HOURS) {
  const at = (seconds: number) => new Date(STARTED_MS + seconds * 1000).toISOString();
  return exportRecordFixture({
    status: ExportStatus.COMPLETED,
    request,
    startedAt: at(0),
    completedAt: at(doneSeconds),
    ...(seenSeconds !== undefined && { processingSeenAt: at(seenSeconds) }),
  });
}

describe('expectedEndWindow', () => {
  it('spans from the soonest any recent export may have ended to the latest one was seen done, the median of the ends typical', () => {
    // Act
    const window = expectedEndWindow(
      [completed(392, 389), completed(391, 390), completed(400, 395)],
      SIX_HOURS,
    );

    // Assess
    expect(window).toEqual({ fromSeconds: 389, untilSeconds: 400, typicalSeconds: 392 });
  });

  it('is not pushed late by a late poll: a poll that saw the end long after it happened widens the window, it does not move it', () => {
    // Prepare: the first export was polled at 335 s (running) then only at 485 s (done); it took 390 s
    const history = [completed(485, 335)];

    // Act
    const window = expectedEndWindow(history, SIX_HOURS);

    // Assess: the next export is looked at from 335 s on, often for at most two minutes, not first at 485 s
    expect(window).toEqual({
      fromSeconds: 335,
      untilSeconds: 335 + MAX_EXPECTED_END_SECONDS,
      typicalSeconds: 485,
    });
  });

  it('starts a little earlier than the soonest end it knows when no poll saw an export running', () => {
    // Act
    const window = expectedEndWindow([completed(400), completed(420)], SIX_HOURS);

    // Assess
    expect(window).toEqual({
      fromSeconds: 400 * (1 - UNKNOWN_START_EARLY_SHARE),
      untilSeconds: 420,
      typicalSeconds: 410,
    });
  });

  it('learns from exports of the same length when there are some, else from any', () => {
    // Prepare: the spot's hourly exports take 90 s, its six-hour ones 390 s
    const history = [completed(91, 89, ONE_HOUR), completed(91, 90, ONE_HOUR), completed(391, 389)];

    // Act
    const sixHours = expectedEndWindow(history, SIX_HOURS);
    const conversation = expectedEndWindow(history, { kind: 'conversation', conversationId: 'sp_demo_p1' });

    // Assess
    expect(sixHours).toEqual({ fromSeconds: 389, untilSeconds: 391, typicalSeconds: 391 });
    expect(conversation).toEqual({
      fromSeconds: 89,
      untilSeconds: 89 + MAX_EXPECTED_END_SECONDS,
      typicalSeconds: 91,
    });
  });

  it('has no window without history', () => {
    // Act / Assess
    expect(expectedEndWindow([], SIX_HOURS)).toBeUndefined();
  });
});
