import * as z from 'zod/mini';
import { schemaOnFirstUse } from '../exports/record/schemaOnFirstUse';
import { spotIdSchema } from '../exports/record/spotIdSchema';

const API_KEY_MESSAGE = 'apiKey must be a non-empty string';

const apiKeySchema = schemaOnFirstUse(() =>
  z.string({ error: API_KEY_MESSAGE }).check(z.trim(), z.minLength(1, API_KEY_MESSAGE)),
);

/** Secrets Manager value: `{"spotId": "...", "apiKey": "..."}`. Built by the first secret read. */
export const secretValueSchema = schemaOnFirstUse(() =>
  z.looseObject({ spotId: spotIdSchema(), apiKey: apiKeySchema() }, { error: 'must be a JSON object' }),
);

/** Local file: `{"sp_abc": {"apiKey": "..."}}`. Built by the first file read. */
export const credentialsFileSchema = schemaOnFirstUse(() =>
  z.record(z.string(), z.looseObject({ apiKey: apiKeySchema() }, { error: 'must be a JSON object' }), {
    error: 'must be a JSON object',
  }),
);

/**
 * Parse JSON without letting the parser's message (which quotes the input) escape,
 * because the input is a secret.
 */
export function parseJsonQuietly(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Zod issues as `path: message`, with no input values. */
export function describeIssues(error: z.core.$ZodError): string[] {
  return error.issues.map(
    (issue) => `${issue.path.length ? issue.path.join('.') : 'value'}: ${issue.message}`,
  );
}
