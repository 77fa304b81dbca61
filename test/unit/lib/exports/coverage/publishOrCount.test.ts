import { describe, expect, it } from 'vitest';
import { ExportEventPublishError } from '../../../../../lib/events/errors';
import { publishOrCount } from '../../../../../lib/exports/coverage/publishOrCount';
import type { ExportMetricName } from '../../../../../lib/exports/record/ports';

function countingMetrics() {
  const counted: ExportMetricName[] = [];
  return { counted, metrics: { count: (name: ExportMetricName) => void counted.push(name) } };
}

describe('publishOrCount', () => {
  it('publishes and counts nothing when the bus takes the event', async () => {
    // Prepare
    const { counted, metrics } = countingMetrics();
    const sent: string[] = [];

    // Act
    const published = await publishOrCount({ metrics }, async () => void sent.push('Export Completed'));

    // Assess
    expect(published).toBe(true);
    expect(sent).toEqual(['Export Completed']);
    expect(counted).toEqual([]);
  });

  it.each([
    [
      'a refusal the publisher could not get past',
      new ExportEventPublishError('ex_1', 'ThrottlingException', 3),
    ],
    ['a refusal of the entry itself', new ExportEventPublishError('ex_1', 'MalformedDetail')],
    [
      'a call that failed outright',
      Object.assign(new Error('down'), { name: 'ThrottlingException', $fault: 'client' }),
    ],
  ])('counts %s as an event not published, and lets the caller carry on', async (_kind, failure) => {
    // Prepare
    const { counted, metrics } = countingMetrics();

    // Act
    const published = await publishOrCount({ metrics }, async () => {
      throw failure;
    });

    // Assess
    expect(published).toBe(false);
    expect(counted).toEqual(['EventsNotPublished']);
  });
});
