import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from '../exports/record/spotId';

// Plain checks rather than a schema library: every function that talks to the upstream reads a
// secret, and a schema library would be a large part of what those functions load.

const API_KEY_MESSAGE = 'apiKey must be a non-empty string';
const NOT_AN_OBJECT_MESSAGE = 'must be a JSON object';

/** What a credentials value holds, or what is wrong with it: `path: message`, never a value. */
export type CredentialsReading<T> = { ok: true; value: T } | { ok: false; issues: string[] };

/** Secrets Manager value: `{"spotId": "...", "apiKey": "..."}`; other fields are kept. */
export interface SecretValue {
  spotId: string;
  apiKey: string;
  [field: string]: unknown;
}

/** Local file: `{"sp_abc": {"apiKey": "..."}}`. */
export type CredentialsFile = Record<string, { apiKey: string; [field: string]: unknown }>;

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The API key, trimmed, or the issue with it under `path`. */
function readApiKey(value: unknown, path: string, issues: string[]): string {
  const apiKey = typeof value === 'string' ? value.trim() : '';
  if (apiKey === '') issues.push(`${path}: ${API_KEY_MESSAGE}`);
  return apiKey;
}

/** A Secrets Manager value, checked: every issue is named by its field. */
export function readSecretValue(value: unknown): CredentialsReading<SecretValue> {
  const secret = objectOf(value);
  if (secret === undefined) return { ok: false, issues: [`value: ${NOT_AN_OBJECT_MESSAGE}`] };
  const issues: string[] = [];
  const { spotId } = secret;
  if (typeof spotId !== 'string' || !SPOT_ID_PATTERN.test(spotId)) issues.push(`spotId: ${SPOT_ID_MESSAGE}`);
  const apiKey = readApiKey(secret.apiKey, 'apiKey', issues);
  return issues.length > 0
    ? { ok: false, issues }
    : { ok: true, value: { ...secret, spotId: spotId as string, apiKey } };
}

/** A local credentials file, checked: every issue is named by its spot and field. */
export function readCredentialsFile(value: unknown): CredentialsReading<CredentialsFile> {
  const file = objectOf(value);
  if (file === undefined) return { ok: false, issues: [`value: ${NOT_AN_OBJECT_MESSAGE}`] };
  const issues: string[] = [];
  const spots: CredentialsFile = {};
  for (const [spotId, entryValue] of Object.entries(file)) {
    const entry = objectOf(entryValue);
    if (entry === undefined) {
      issues.push(`${spotId}: ${NOT_AN_OBJECT_MESSAGE}`);
      continue;
    }
    spots[spotId] = { ...entry, apiKey: readApiKey(entry.apiKey, `${spotId}.apiKey`, issues) };
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: spots };
}

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
