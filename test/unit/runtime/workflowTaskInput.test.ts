import { describe, expect, it } from 'vitest';
import { newExportId } from '../../../lib/exports/exportId';
import { InvalidTaskInputError } from '../../../lib/runtime/errors';
import {
  isTaskAction,
  parsePollTaskInput,
  parseTimeoutAbortTaskInput,
} from '../../../lib/runtime/workflowTaskInput';

const exportId = newExportId();

describe('workflow task inputs', () => {
  it('reads the poll and timeout-abort inputs of the contract', () => {
    // Prepare
    const poll = { action: 'poll', spotId: 'sp_a', exportId, deadline: '2026-01-01T06:00:00.000Z' };

    // Act / Assess
    expect(parsePollTaskInput({ ...poll, extra: 1 })).toEqual(poll);
    expect(parseTimeoutAbortTaskInput({ action: 'abortOnTimeout', spotId: 'sp_a', exportId })).toEqual({
      action: 'abortOnTimeout',
      spotId: 'sp_a',
      exportId,
    });
  });

  it.each([
    { action: 'poll', spotId: 'sp_a', exportId },
    { action: 'poll', spotId: 'sp_a', exportId: 'ex_bad', deadline: '2026-01-01T06:00:00Z' },
    { action: 'poll', spotId: 'bad', exportId, deadline: 'soon' },
  ])('throws InvalidTaskInputError for %j', (input) => {
    // Act / Assess
    expect(() => parsePollTaskInput(input)).toThrow(InvalidTaskInputError);
  });

  it('tells task actions apart', () => {
    // Act / Assess
    expect(isTaskAction({ action: 'poll' }, 'poll')).toBe(true);
    expect(isTaskAction({ action: 'poll' }, 'abortOnTimeout')).toBe(false);
    expect(isTaskAction(undefined, 'poll')).toBe(false);
  });
});
