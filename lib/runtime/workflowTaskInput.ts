import * as z from 'zod/mini';
import { isValidExportId } from '../exports/exportId';
import type {
  ArchiveFailedTaskInput,
  ArchiveTaskInput,
  CreateTaskInput,
  PollTaskInput,
  TimeoutAbortTaskInput,
} from '../exports/pollingWorkflowContract';
import { spotIdSchema } from '../exports/spotId';
import { InvalidTaskInputError } from './errors';

const exportIdSchema = z
  .string({ error: 'must be an export id' })
  .check(z.refine(isValidExportId, 'must be an export id'));

const deadlineSchema = z
  .string({ error: 'must be an ISO-8601 instant' })
  .check(z.refine((text) => Number.isFinite(Date.parse(text)), 'must be an ISO-8601 instant'));

const pollTaskInputSchema = z.object({
  action: z.literal('poll'),
  spotId: spotIdSchema,
  exportId: exportIdSchema,
  deadline: deadlineSchema,
});

const createTaskInputSchema = z.object({
  action: z.literal('create'),
  spotId: spotIdSchema,
  exportId: exportIdSchema,
  deadline: deadlineSchema,
});

const timeoutAbortTaskInputSchema = z.object({
  action: z.literal('abortOnTimeout'),
  spotId: spotIdSchema,
  exportId: exportIdSchema,
});

const archiveTaskInputSchema = z.object({
  action: z.literal('archive'),
  spotId: spotIdSchema,
  exportId: exportIdSchema,
});

const archiveFailedTaskInputSchema = z.object({
  action: z.literal('archiveFailed'),
  spotId: spotIdSchema,
  exportId: exportIdSchema,
  error: z.optional(
    z.object(
      {
        Error: z.optional(z.string({ error: 'must be a string' })),
        Cause: z.optional(z.string({ error: 'must be a string' })),
      },
      { error: 'must be an object' },
    ),
  ),
});

/** True for an object naming this task action; whether it is well-formed is the parser's job. */
export function isTaskAction(event: unknown, action: string): boolean {
  return typeof event === 'object' && event !== null && (event as { action?: unknown }).action === action;
}

/** @throws InvalidTaskInputError */
export function parsePollTaskInput(event: unknown): PollTaskInput {
  return parse(pollTaskInputSchema, event, 'poll');
}

/** @throws InvalidTaskInputError */
export function parseCreateTaskInput(event: unknown): CreateTaskInput {
  return parse(createTaskInputSchema, event, 'create');
}

/** @throws InvalidTaskInputError */
export function parseTimeoutAbortTaskInput(event: unknown): TimeoutAbortTaskInput {
  return parse(timeoutAbortTaskInputSchema, event, 'abortOnTimeout');
}

/** @throws InvalidTaskInputError */
export function parseArchiveTaskInput(event: unknown): ArchiveTaskInput {
  return parse(archiveTaskInputSchema, event, 'archive');
}

/** @throws InvalidTaskInputError */
export function parseArchiveFailedTaskInput(event: unknown): ArchiveFailedTaskInput {
  return parse(archiveFailedTaskInputSchema, event, 'archiveFailed');
}

function parse<T>(schema: z.ZodMiniType<T>, event: unknown, action: string): T {
  const parsed = schema.safeParse(event);
  if (!parsed.success) {
    throw new InvalidTaskInputError(
      action,
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`),
    );
  }
  return parsed.data;
}
