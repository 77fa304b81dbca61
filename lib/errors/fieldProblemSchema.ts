import * as z from 'zod/mini';

/**
 * One invalid field of a request, as RFC 9457 extension member `errors`: the type ./problems.ts
 * builds, and part of the problem schema (lib/http/problemSchema.ts). Only its type is bundled.
 */
export const fieldProblemSchema = z
  .object({
    field: z.string().check(z.describe('Where: `body.from`, `header.x-spot-id`, `query.limit`, …')),
    message: z.string().check(z.describe('The rule the field breaks; never the value sent.')),
  })
  .register(z.globalRegistry, { id: 'FieldProblem' });

export type FieldProblem = z.infer<typeof fieldProblemSchema>;
