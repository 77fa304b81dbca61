import * as z from 'zod/mini';
import { fieldProblemSchema } from '../errors/fieldProblemSchema';
import { ExportStatus } from '../exports/record/ExportStatus';
import { exportIdField } from '../exports/record/viewFields';

/**
 * The API's failures: RFC 9457 problem details as ./problemResponse.ts renders them, and API
 * Gateway's own answers. The OpenAPI document is generated from these schemas and the CLI reads
 * problems with them; the functions import none of it.
 */

export const problemSchema = z
  .object({
    type: z
      .string()
      .check(
        z.describe(
          'The kind of problem, `/problems/<kind>` (relative to the API), or `about:blank` for an ' +
            'unexpected failure. Branch on this, never on `title` or `detail`.',
        ),
      ),
    title: z.string(),
    status: z.int().check(z.gte(400), z.lte(599), z.describe('The HTTP status, repeated.')),
    detail: z.optional(z.string()),
    instance: z.optional(z.string()),
    errors: z
      .optional(z.array(fieldProblemSchema))
      .check(z.describe('With `invalid-request`: every invalid field.')),
    activeExportId: z
      .optional(exportIdField)
      .check(z.describe('With `spot-busy`: the export holding the spot.')),
    exportId: z.optional(exportIdField).check(z.describe('With `export-already-finished`.')),
    exportStatus: z
      .optional(z.enum(ExportStatus))
      .check(z.describe('With `export-already-finished`: the final status.')),
  })
  .register(z.globalRegistry, {
    id: 'Problem',
    description: 'RFC 9457 problem details (`application/problem+json`).',
  });

/** An RFC 9457 problem as the API answers it. */
export type ProblemDetails = z.infer<typeof problemSchema>;

/** What API Gateway itself answers before any function runs (authorizer refusals, throttling, timeouts). */
export const gatewayMessageSchema = z.object({ message: z.string() }).register(z.globalRegistry, {
  id: 'GatewayMessage',
  description: 'API Gateway\'s own answer, e.g. `{"message":"Unauthorized"}`.',
});
