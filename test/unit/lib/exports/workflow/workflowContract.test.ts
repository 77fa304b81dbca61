import { describe, expect, it } from 'vitest';
import { newExportId } from '../../../../../lib/exports/record/exportId';
import {
  pollingExecutionName,
  WORKFLOW_TASK_FIELDS,
  WorkflowTaskHandlers,
  workflowTaskAction,
} from '../../../../../lib/exports/workflow/workflowContract';
import {
  InvalidTaskInputError,
  parseWorkflowTask,
} from '../../../../../lib/exports/workflow/workflowTaskInput';

const exportId = newExportId();

describe('workflowContract', () => {
  it('reads the poll and timeout-abort inputs of the contract', () => {
    // Prepare
    const poll = { action: 'poll', spotId: 'sp_a', exportId, deadline: '2026-01-01T06:00:00.000Z' };

    // Act / Assess
    expect(parseWorkflowTask('poll', { ...poll, extra: 1 })).toEqual(poll);
    expect(
      parseWorkflowTask('abortOnTimeout', { action: 'abortOnTimeout', spotId: 'sp_a', exportId }),
    ).toEqual({ action: 'abortOnTimeout', spotId: 'sp_a', exportId });
  });

  it.each([
    { action: 'poll', spotId: 'sp_a', exportId },
    { action: 'poll', spotId: 'sp_a', exportId: 'ex_bad', deadline: '2026-01-01T06:00:00Z' },
    { action: 'poll', spotId: 'bad', exportId, deadline: 'soon' },
    { action: 'create', spotId: 'sp_a', exportId, deadline: '2026-01-01T06:00:00Z' },
  ])('throws InvalidTaskInputError naming the fields for %j', (input) => {
    // Act / Assess
    expect(() => parseWorkflowTask('poll', input)).toThrow(InvalidTaskInputError);
  });

  it('tells the actions a handler serves apart from the rest', () => {
    // Act / Assess
    expect(workflowTaskAction({ action: 'poll' }, ['create', 'poll'])).toBe('poll');
    expect(workflowTaskAction({ action: 'archive' }, ['create', 'poll'])).toBeUndefined();
    expect(workflowTaskAction(undefined, ['poll'])).toBeUndefined();
    expect(workflowTaskAction('poll', ['poll'])).toBeUndefined();
  });

  it('builds a payload from the declared fields that each task parses back', () => {
    // Prepare: the state's input as the state machine holds it
    const state = {
      spotId: 'sp_a',
      exportId,
      deadline: '2026-01-01T06:00:00.000Z',
      archiveError: { Error: 'States.TaskFailed', Cause: 'x' },
    };

    for (const action of Object.keys(WorkflowTaskHandlers) as (keyof typeof WorkflowTaskHandlers)[]) {
      // Act: what the state machine sends, read the way JsonPath reads it
      const payload = Object.fromEntries(
        Object.entries(WORKFLOW_TASK_FIELDS[action]).map(([field, { path }]) => [
          field,
          state[path.slice(2) as keyof typeof state],
        ]),
      );

      // Assess
      expect(parseWorkflowTask(action, { action, ...payload })).toMatchObject({ action, spotId: 'sp_a' });
    }
  });

  it('derives execution names from the export id, one per restart', () => {
    // Act / Assess
    expect(pollingExecutionName(exportId)).toBe(exportId);
    expect(pollingExecutionName(exportId, 2)).toBe(`${exportId}-r2`);
  });
});
