import { describe, expect, it } from 'vitest';
import { InvalidScheduledExportEventError } from '../../../../lib/events/errors';
import {
  isScheduledExportEvent,
  scheduledRunOf,
  toWholeSecondInstant,
} from '../../../../lib/events/scheduledExportEvent';

const event = {
  source: 'schedule',
  spotId: 'sp_abc',
  schedule: 'hourly',
  window: 'PT6H',
  scheduledTime: '2026-03-01T06:00:00Z',
};

describe('scheduledRunOf', () => {
  it('reads the run: its schedule, end, first window, and defaults for lag and window size', () => {
    // Act
    const run = scheduledRunOf(event);

    // Assess
    expect(run).toEqual({
      spotId: 'sp_abc',
      schedule: 'hourly',
      scheduledTimeMs: Date.parse('2026-03-01T06:00:00Z'),
      firstWindowSeconds: 6 * 3600,
      lagSeconds: 0,
      maxWindowHours: 730,
      restate: [],
    });
  });

  it("reads the schedule's restatement ages, shortest first", () => {
    // Act / Assess
    expect(scheduledRunOf({ ...event, restate: ['P7D', 'P1D'] }).restate).toEqual(['P1D', 'P7D']);
  });

  it('truncates the scheduled time to whole seconds, reads offsets, the lag and the window size', () => {
    // Act
    const run = scheduledRunOf({
      ...event,
      window: 'P1D',
      lag: 'PT15M',
      maxWindowHours: 24,
      scheduledTime: '2026-03-01T07:00:59.999+01:00',
    });

    // Assess
    expect(run).toMatchObject({
      scheduledTimeMs: Date.parse('2026-03-01T06:00:59Z'),
      firstWindowSeconds: 86_400,
      lagSeconds: 900,
      maxWindowHours: 24,
    });
  });

  it('reads a redelivered event as the same run', () => {
    // Act / Assess
    expect(scheduledRunOf({ ...event })).toEqual(scheduledRunOf(event));
  });

  it('accepts a first window longer than one export may cover: the run cuts it into windows', () => {
    // Act / Assess
    expect(scheduledRunOf({ ...event, window: 'P90D' }).firstWindowSeconds).toBe(90 * 86_400);
  });

  it.each([
    ['a window in months', { window: 'P1M' }],
    ['an empty window', { window: 'PT0S' }],
    ['a negative-looking lag', { lag: '-PT1H' }],
    ['a window size beyond what the upstream allows', { maxWindowHours: 731 }],
    ['a fractional window size', { maxWindowHours: 1.5 }],
    ['a missing schedule name', { schedule: undefined }],
    ['a schedule name with a slash', { schedule: 'a/b' }],
    ['a malformed spot id', { spotId: 'abc' }],
    ['a scheduled time that is not an instant', { scheduledTime: 'tomorrow' }],
    ['a missing scheduled time', { scheduledTime: undefined }],
    ['restatement ages that are not a list', { restate: 'P1D' }],
    ['a restatement age in months', { restate: ['P1M'] }],
    ['a restatement age shorter than the lag', { lag: 'PT2H', restate: ['PT1H'] }],
    ['five restatement ages', { restate: ['P1D', 'P2D', 'P3D', 'P4D', 'P5D'] }],
  ])('throws InvalidScheduledExportEventError for %s', (_, change) => {
    // Act / Assess
    expect(() => scheduledRunOf({ ...event, ...change })).toThrow(InvalidScheduledExportEventError);
  });

  it('recognises scheduled events by their source', () => {
    // Act / Assess
    expect(isScheduledExportEvent(event)).toBe(true);
    expect(isScheduledExportEvent({ source: 'reconciler' })).toBe(false);
    expect(isScheduledExportEvent(null)).toBe(false);
  });

  it('formats instants as the upstream expects', () => {
    // Act / Assess
    expect(toWholeSecondInstant(Date.parse('2026-03-01T00:00:00.999Z'))).toBe('2026-03-01T00:00:00Z');
  });
});
