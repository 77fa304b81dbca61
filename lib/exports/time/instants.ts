/** An epoch-ms instant as the records store it: ISO 8601 in UTC with milliseconds. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

/** The instants the API reads: RFC 3339 in UTC, to the second, like `2026-01-31T00:00:00Z`. */
export const RFC3339_UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** `text` as epoch ms when it is such an instant and a real one (no 31 February); else undefined. */
export function parseUtcInstant(text: string): number | undefined {
  if (!RFC3339_UTC_SECONDS.test(text)) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || !new Date(ms).toISOString().startsWith(text.slice(0, 19))) return undefined;
  return ms;
}
