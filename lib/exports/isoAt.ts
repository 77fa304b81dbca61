/** An epoch-ms instant as the records store it: ISO 8601 in UTC with milliseconds. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
