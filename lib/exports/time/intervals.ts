/** A half-open span of time `[fromMs, untilMs)`, epoch milliseconds. */
export interface Interval {
  fromMs: number;
  untilMs: number;
}

/** The union of `intervals`: sorted, disjoint, touching ones joined. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.untilMs > i.fromMs).sort((a, b) => a.fromMs - b.fromMs);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && interval.fromMs <= last.untilMs)
      last.untilMs = Math.max(last.untilMs, interval.untilMs);
    else merged.push({ ...interval });
  }
  return merged;
}

/** The parts of `range` that none of `taken` covers, in order. */
export function subtractIntervals(range: Interval, taken: readonly Interval[]): Interval[] {
  const free: Interval[] = [];
  let cursor = range.fromMs;
  for (const interval of mergeIntervals(taken)) {
    if (interval.untilMs <= cursor) continue;
    if (interval.fromMs >= range.untilMs) break;
    if (interval.fromMs > cursor) free.push({ fromMs: cursor, untilMs: interval.fromMs });
    cursor = Math.max(cursor, interval.untilMs);
  }
  if (cursor < range.untilMs) free.push({ fromMs: cursor, untilMs: range.untilMs });
  return free;
}

/** `interval` cut into pieces of at most `maxMs`, from its start (the last piece may be shorter). */
export function splitInterval(interval: Interval, maxMs: number): Interval[] {
  if (maxMs <= 0) throw new RangeError('a piece must be longer than zero');
  const pieces: Interval[] = [];
  for (let fromMs = interval.fromMs; fromMs < interval.untilMs; fromMs += maxMs) {
    pieces.push({ fromMs, untilMs: Math.min(fromMs + maxMs, interval.untilMs) });
  }
  return pieces;
}

/** Where at least two of `intervals` overlap, merged. */
export function overlappingParts(intervals: readonly Interval[]): Interval[] {
  const edges = intervals
    .filter((i) => i.untilMs > i.fromMs)
    .flatMap((i) => [
      { atMs: i.fromMs, delta: 1 },
      { atMs: i.untilMs, delta: -1 },
    ])
    // Ends before starts at the same instant: touching intervals do not overlap.
    .sort((a, b) => a.atMs - b.atMs || a.delta - b.delta);
  const parts: Interval[] = [];
  let depth = 0;
  let openedAt = 0;
  for (const edge of edges) {
    const before = depth;
    depth += edge.delta;
    if (before < 2 && depth >= 2) openedAt = edge.atMs;
    else if (before >= 2 && depth < 2 && edge.atMs > openedAt)
      parts.push({ fromMs: openedAt, untilMs: edge.atMs });
  }
  return mergeIntervals(parts);
}

/** Total length of the union of `intervals`, in milliseconds. */
export function coveredMs(intervals: readonly Interval[]): number {
  return mergeIntervals(intervals).reduce((sum, i) => sum + (i.untilMs - i.fromMs), 0);
}

/** `YYYY-MM-DDTHH:MM:SSZ`, the upstream's instant format. */
export function wholeSecondInstant(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
