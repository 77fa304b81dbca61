import { z } from 'zod';

/** Spot ids look like `sp_abc123`; anything else is refused before it reaches a secret name or a header. */
export const SPOT_ID_PATTERN = /^sp_[A-Za-z0-9_-]{1,64}$/;

export const spotIdSchema = z.string().regex(SPOT_ID_PATTERN, 'must look like sp_<letters, digits, _ or ->');

const apiKeySchema = z.string().trim().min(1, 'apiKey must be a non-empty string');

/** Secrets Manager value: `{"spotId": "...", "apiKey": "..."}`. */
export const secretValueSchema = z.looseObject({ spotId: spotIdSchema, apiKey: apiKeySchema });

/** Local file: `{"sp_abc": {"apiKey": "..."}}`. */
export const credentialsFileSchema = z.record(z.string(), z.looseObject({ apiKey: apiKeySchema }));

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
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map(
    (issue) => `${issue.path.length ? issue.path.join('.') : 'value'}: ${issue.message}`,
  );
}
