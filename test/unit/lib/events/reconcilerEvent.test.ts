import { describe, expect, it } from 'vitest';
import { isReconcilerEvent } from '../../../../lib/events/reconcilerEvent';

describe('isReconcilerEvent', () => {
  it("recognises the reconciler schedule's event and nothing else", () => {
    // Act / Assess
    expect(isReconcilerEvent({ source: 'reconciler' })).toBe(true);
    expect(isReconcilerEvent({ source: 'reconciler', extra: 1 })).toBe(true);
    for (const other of [null, undefined, 'reconciler', {}, { source: 'aws.scheduler' }, { detail: {} }])
      expect(isReconcilerEvent(other)).toBe(false);
  });
});
