const MS_PER_SECOND = 1000;
const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;

/** A duration for people: `45s`, `3m 05s`, `2h 01m 09s`. */
export function formatElapsed(milliseconds: number): string {
  const total = Math.max(0, Math.floor(milliseconds / MS_PER_SECOND));
  const hours = Math.floor(total / SECONDS_PER_HOUR);
  const minutes = Math.floor((total % SECONDS_PER_HOUR) / SECONDS_PER_MINUTE);
  const seconds = total % SECONDS_PER_MINUTE;
  const pad = (value: number) => String(value).padStart(2, '0');
  if (hours > 0) return `${hours}h ${pad(minutes)}m ${pad(seconds)}s`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}

/**
 * How long an export has run: from its request to its completion, or to `nowMs` while it
 * runs. `undefined` when the API gave no parsable request time.
 */
export function exportElapsedMs(
  view: { requestedAt?: string; completedAt?: string },
  nowMs: number,
): number | undefined {
  const requestedMs = view.requestedAt ? Date.parse(view.requestedAt) : Number.NaN;
  if (Number.isNaN(requestedMs)) return undefined;
  const completedMs = view.completedAt ? Date.parse(view.completedAt) : Number.NaN;
  return (Number.isNaN(completedMs) ? nowMs : completedMs) - requestedMs;
}
