import { describe, expect, it } from 'vitest';
import { newExportId } from '../../../../../lib/exports/record/exportId';
import {
  InvalidTaskInputError,
  parseWorkflowTask,
} from '../../../../../lib/exports/workflow/workflowTaskInput';

const EXPORT_ID = newExportId(Date.parse('2026-11-01T00:00:00Z'));
const DEADLINE = '2026-11-01T06:00:00.000Z';

describe('parseWorkflowTask', () => {
  it("reads each task's input as the state machine sends it", () => {
    // Act / Assess
    expect(
      parseWorkflowTask('create', {
        action: 'create',
        spotId: 'sp_a',
        exportId: EXPORT_ID,
        deadline: DEADLINE,
      }),
    ).toEqual({ action: 'create', spotId: 'sp_a', exportId: EXPORT_ID, deadline: DEADLINE });
    expect(
      parseWorkflowTask('poll', { action: 'poll', spotId: 'sp_a', exportId: EXPORT_ID, deadline: DEADLINE })
        .action,
    ).toBe('poll');
  });

  it('refuses an input out of step with the contract, naming every field that is wrong', () => {
    // Act
    let error: unknown;
    try {
      parseWorkflowTask('poll', { action: 'create', spotId: 'nope', exportId: 'ex_1', deadline: 'soon' });
    } catch (caught) {
      error = caught;
    }

    // Assess
    expect(error).toBeInstanceOf(InvalidTaskInputError);
    expect((error as InvalidTaskInputError).problems.map((problem) => problem.split(':')[0])).toEqual([
      'action',
      'spotId',
      'exportId',
      'deadline',
    ]);
    expect((error as Error).message).toMatch(/^Invalid poll task input: /);
  });

  it("keeps only the contract's fields, and of a failed archive's error its Error and Cause", () => {
    // Act
    const archiveFailed = parseWorkflowTask('archiveFailed', {
      action: 'archiveFailed',
      spotId: 'sp_a',
      exportId: EXPORT_ID,
      error: { Error: 'States.Timeout', Cause: 'took too long', extra: 1 },
      executionName: 'ignored',
    });

    // Assess
    expect(archiveFailed).toEqual({
      action: 'archiveFailed',
      spotId: 'sp_a',
      exportId: EXPORT_ID,
      error: { Error: 'States.Timeout', Cause: 'took too long' },
    });
    expect(() =>
      parseWorkflowTask('archiveFailed', {
        action: 'archiveFailed',
        spotId: 'sp_a',
        exportId: EXPORT_ID,
        error: { Cause: 42 },
      }),
    ).toThrow(/error\.Cause: must be a string/);
  });

  it('refuses something that is not an object at all', () => {
    // Act / Assess
    expect(() => parseWorkflowTask('create', 'create sp_a')).toThrow(InvalidTaskInputError);
  });
});
