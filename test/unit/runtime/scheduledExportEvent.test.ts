import { describe, expect, it } from 'vitest';
import { InvalidScheduledExportEventError } from '../../../lib/events/errors';
import {
  isScheduledExportEvent,
  scheduledStartCommand,
  toWholeSecondInstant,
} from '../../../lib/events/scheduledExportEvent';

const event = { source: 'schedule', spotId: 'sp_abc', window: 'PT6H', scheduledTime: '2026-03-01T06:00:00Z' };

describe('scheduledStartCommand', () => {
  it('covers the window that ends at the scheduled time', () => {
    // Act
    const command = scheduledStartCommand(event);

    // Assess
    expect(command).toEqual({
      spotId: 'sp_abc',
      source: 'schedule',
      request: { kind: 'dateRange', from: '2026-03-01T00:00:00Z', until: '2026-03-01T06:00:00Z' },
      idempotencyKey: 'schedule:PT6H:2026-03-01T06:00:00Z',
    });
  });

  it('truncates both ends to whole seconds and reads offsets', () => {
    // Act
    const command = scheduledStartCommand({
      ...event,
      window: 'P1D',
      scheduledTime: '2026-03-01T07:00:59.999+01:00',
    });

    // Assess
    expect(command.request).toEqual({
      kind: 'dateRange',
      from: '2026-02-28T06:00:59Z',
      until: '2026-03-01T06:00:59Z',
    });
  });

  it('derives the same idempotency key from a redelivered event', () => {
    // Act / Assess
    expect(scheduledStartCommand({ ...event }).idempotencyKey).toBe(
      scheduledStartCommand(event).idempotencyKey,
    );
  });

  it.each([
    ['a window in months', { window: 'P1M' }],
    ['an empty window', { window: 'PT0S' }],
    ['a window longer than the upstream allows', { window: 'P31D' }],
    ['a malformed spot id', { spotId: 'abc' }],
    ['a scheduled time that is not an instant', { scheduledTime: 'tomorrow' }],
    ['a missing scheduled time', { scheduledTime: undefined }],
  ])('throws InvalidScheduledExportEventError for %s', (_, change) => {
    // Act / Assess
    expect(() => scheduledStartCommand({ ...event, ...change })).toThrow(InvalidScheduledExportEventError);
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
