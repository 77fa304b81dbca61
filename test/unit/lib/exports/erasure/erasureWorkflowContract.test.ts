import { describe, expect, it } from 'vitest';
import type { ErasureRecord } from '../../../../../lib/exports/erasure/ErasureRecord';
import {
  erasureExecutionName,
  erasureResumeExecutionName,
  erasureWorkflowInput,
  isErasureWorkflowInput,
} from '../../../../../lib/exports/erasure/erasureWorkflowContract';

const ERASURE_ID = `er_${'0123456789ab'.repeat(2)}`;
const RECORD = {
  spotId: 'sp_a',
  erasureId: ERASURE_ID,
  updatedAt: '2026-11-01T00:00:10.000Z',
} as ErasureRecord;

describe('erasureWorkflowContract', () => {
  it('names the first execution for the erasure, so two starts are one', () => {
    // Act / Assess
    expect(erasureExecutionName(ERASURE_ID)).toBe(ERASURE_ID);
  });

  it('names a resuming execution for the state it takes up: the lapsed lease, else the last write', () => {
    // Act
    const lapsed = erasureResumeExecutionName({ ...RECORD, leaseUntil: '2026-11-01T00:20:00.000Z' });
    const neverHeld = erasureResumeExecutionName(RECORD);

    // Assess
    expect(lapsed).toBe(`${ERASURE_ID}-r${Date.parse('2026-11-01T00:20:00Z') / 1000}`);
    expect(neverHeld).toBe(`${ERASURE_ID}-r${Date.parse('2026-11-01T00:00:10Z') / 1000}`);
    expect(lapsed.length).toBeLessThanOrEqual(80);
  });

  it('gives the execution its own name as the run that holds the lease, from no pass yet', () => {
    // Act
    const input = erasureWorkflowInput(RECORD, 'run-1');

    // Assess
    expect(input).toEqual({ spotId: 'sp_a', erasureId: ERASURE_ID, runId: 'run-1', passes: 0 });
    expect(isErasureWorkflowInput(input)).toBe(true);
  });

  it('refuses an event that is not the task’s input', () => {
    // Prepare
    const input = erasureWorkflowInput(RECORD, 'run-1');

    // Act / Assess
    for (const event of [
      undefined,
      'x',
      { ...input, spotId: 'not a spot' },
      { ...input, erasureId: 'er_short' },
      { ...input, runId: 'has spaces' },
      { ...input, passes: -1 },
      { ...input, passes: 1.5 },
      { ...input, passes: '1' },
    ]) {
      expect(isErasureWorkflowInput(event), JSON.stringify(event)).toBe(false);
    }
  });
});
