import { isValidExportId } from '../record/exportId';
import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from '../record/spotId';
import type { WorkflowTaskAction } from './workflowContract';

// How the handlers of the workflow's tasks read each task's input (./workflowContract.ts: the
// contract). Plain checks rather than schemas: the workflow's task functions load nothing else
// that needs a schema library.

interface TaskTarget {
  spotId: string;
  exportId: string;
}

export interface CreateTaskInput extends TaskTarget {
  action: 'create';
  /** ISO-8601 instant. */
  deadline: string;
}

export interface PollTaskInput extends TaskTarget {
  action: 'poll';
  /** ISO-8601 instant. */
  deadline: string;
}

export interface TimeoutAbortTaskInput extends TaskTarget {
  action: 'abortOnTimeout';
}

export interface ArchiveTaskInput extends TaskTarget {
  action: 'archive';
}

export interface ArchiveFailedTaskInput extends TaskTarget {
  action: 'archiveFailed';
  /** What the state machine caught. */
  error?: { Error?: string; Cause?: string };
}

/** The input of each task, as its handler receives it. */
export type WorkflowTaskInput<A extends WorkflowTaskAction> = {
  create: CreateTaskInput;
  poll: PollTaskInput;
  abortOnTimeout: TimeoutAbortTaskInput;
  archive: ArchiveTaskInput;
  archiveFailed: ArchiveFailedTaskInput;
}[A];

/** Each field of a task input: its check (a problem, or undefined when the value fits). */
const FIELD_PROBLEMS = {
  spotId: (value: unknown) =>
    typeof value === 'string' && SPOT_ID_PATTERN.test(value) ? undefined : SPOT_ID_MESSAGE,
  exportId: (value: unknown) => (isValidExportId(value) ? undefined : 'must be an export id'),
  deadline: (value: unknown) =>
    typeof value === 'string' && Number.isFinite(Date.parse(value))
      ? undefined
      : 'must be an ISO-8601 instant',
} as const;

type TaskField = keyof typeof FIELD_PROBLEMS;

/** The fields of each task besides its action and the archive's optional `error`. */
const TASK_FIELDS: Record<WorkflowTaskAction, readonly TaskField[]> = {
  create: ['spotId', 'exportId', 'deadline'],
  poll: ['spotId', 'exportId', 'deadline'],
  abortOnTimeout: ['spotId', 'exportId'],
  archive: ['spotId', 'exportId'],
  archiveFailed: ['spotId', 'exportId'],
};

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The caught error of an `archiveFailed` input, its known members only; problems go to `problems`. */
function taskErrorOf(value: unknown, problems: string[]): { Error?: string; Cause?: string } | undefined {
  const error = objectOf(value);
  if (error === undefined) {
    problems.push('error: must be an object');
    return undefined;
  }
  const read: { Error?: string; Cause?: string } = {};
  for (const member of ['Error', 'Cause'] as const) {
    const text = error[member];
    if (text === undefined) continue;
    if (typeof text === 'string') read[member] = text;
    else problems.push(`error.${member}: must be a string`);
  }
  return read;
}

/** A task input that does not have the contract's shape: a definition and code out of step. */
export class InvalidTaskInputError extends Error {
  override name = 'InvalidTaskInputError';
  readonly problems: string[];

  constructor(action: string, problems: string[]) {
    super(`Invalid ${action} task input: ${problems.join('; ')}`);
    this.problems = problems;
  }
}

/** @throws InvalidTaskInputError naming every field that is wrong */
export function parseWorkflowTask<A extends WorkflowTaskAction>(
  action: A,
  event: unknown,
): WorkflowTaskInput<A> {
  const input = objectOf(event);
  if (input === undefined) throw new InvalidTaskInputError(action, ['input: must be an object']);
  const problems: string[] = [];
  if (input.action !== action) problems.push(`action: must be "${action}"`);
  const read: Record<string, unknown> = { action };
  for (const field of TASK_FIELDS[action]) {
    const problem = FIELD_PROBLEMS[field](input[field]);
    if (problem === undefined) read[field] = input[field];
    else problems.push(`${field}: ${problem}`);
  }
  if (action === 'archiveFailed' && input.error !== undefined) {
    const error = taskErrorOf(input.error, problems);
    if (error !== undefined) read.error = error;
  }
  if (problems.length > 0) throw new InvalidTaskInputError(action, problems);
  return read as unknown as WorkflowTaskInput<A>;
}
