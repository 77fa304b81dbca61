import * as z from 'zod/mini';
import { isValidExportId } from '../record/exportId';
import { schemaOnFirstUse } from '../record/schemaOnFirstUse';
import { spotIdSchema } from '../record/spotIdSchema';
import type { WorkflowTaskAction } from './workflowContract';

// How the handlers of the workflow's tasks read each task's input (./workflowContract.ts: the
// contract). Only those handlers import this, so no other function builds these schemas.

const exportIdSchema = schemaOnFirstUse(() =>
  z.string({ error: 'must be an export id' }).check(z.refine(isValidExportId, 'must be an export id')),
);

const deadlineSchema = schemaOnFirstUse(() =>
  z
    .string({ error: 'must be an ISO-8601 instant' })
    .check(z.refine((text) => Number.isFinite(Date.parse(text)), 'must be an ISO-8601 instant')),
);

const taskErrorSchema = () =>
  z.object(
    {
      Error: z.optional(z.string({ error: 'must be a string' })),
      Cause: z.optional(z.string({ error: 'must be a string' })),
    },
    { error: 'must be an object' },
  );

/** Each task's schema, built by the first input of that task: a handler parses one or two of them. */
const WORKFLOW_TASK_SCHEMAS = {
  create: schemaOnFirstUse(() =>
    z.object({
      action: z.literal('create'),
      spotId: spotIdSchema(),
      exportId: exportIdSchema(),
      deadline: deadlineSchema(),
    }),
  ),
  poll: schemaOnFirstUse(() =>
    z.object({
      action: z.literal('poll'),
      spotId: spotIdSchema(),
      exportId: exportIdSchema(),
      deadline: deadlineSchema(),
    }),
  ),
  abortOnTimeout: schemaOnFirstUse(() =>
    z.object({
      action: z.literal('abortOnTimeout'),
      spotId: spotIdSchema(),
      exportId: exportIdSchema(),
    }),
  ),
  archive: schemaOnFirstUse(() =>
    z.object({ action: z.literal('archive'), spotId: spotIdSchema(), exportId: exportIdSchema() }),
  ),
  archiveFailed: schemaOnFirstUse(() =>
    z.object({
      action: z.literal('archiveFailed'),
      spotId: spotIdSchema(),
      exportId: exportIdSchema(),
      error: z.optional(taskErrorSchema()),
    }),
  ),
} as const;

/** The input of each task, as its handler receives it. */
export type WorkflowTaskInput<A extends WorkflowTaskAction> = z.infer<
  ReturnType<(typeof WORKFLOW_TASK_SCHEMAS)[A]>
>;
export type CreateTaskInput = WorkflowTaskInput<'create'>;
export type PollTaskInput = WorkflowTaskInput<'poll'>;
export type TimeoutAbortTaskInput = WorkflowTaskInput<'abortOnTimeout'>;
export type ArchiveTaskInput = WorkflowTaskInput<'archive'>;
export type ArchiveFailedTaskInput = WorkflowTaskInput<'archiveFailed'>;

/** A task input that does not have the contract's shape: a definition and code out of step. */
export class InvalidTaskInputError extends Error {
  override name = 'InvalidTaskInputError';
  readonly problems: string[];

  constructor(action: string, problems: string[]) {
    super(`Invalid ${action} task input: ${problems.join('; ')}`);
    this.problems = problems;
  }
}

/** @throws InvalidTaskInputError */
export function parseWorkflowTask<A extends WorkflowTaskAction>(
  action: A,
  event: unknown,
): WorkflowTaskInput<A> {
  const parsed = WORKFLOW_TASK_SCHEMAS[action]().safeParse(event);
  if (!parsed.success) {
    throw new InvalidTaskInputError(
      action,
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`),
    );
  }
  return parsed.data as WorkflowTaskInput<A>;
}
