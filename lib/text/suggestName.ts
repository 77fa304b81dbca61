/** Farthest a typo may be from a name (in single-letter edits or swaps) to be suggested. */
const MAX_SUGGESTION_DISTANCE = 2;

/**
 * The name the operator probably meant: the only one the typo is a prefix of (`stat` → `status`),
 * else the nearest within two edits, where swapping two neighbouring letters is one edit
 * (`wiat` → `wait`). Undefined when nothing is close or two names are equally close.
 */
export function suggestName(typo: string, names: readonly string[]): string | undefined {
  const lower = typo.toLowerCase();
  if (lower === '') return undefined;
  const prefixed = names.filter((name) => name.toLowerCase().startsWith(lower));
  if (prefixed.length === 1) return prefixed[0];
  const scored = names
    .map((name) => ({ name, distance: editDistance(lower, name.toLowerCase()) }))
    .filter(({ distance }) => distance <= MAX_SUGGESTION_DISTANCE && distance < Math.max(lower.length, 2))
    .sort((a, b) => a.distance - b.distance);
  const [best, second] = scored;
  if (best === undefined) return undefined;
  return second !== undefined && second.distance === best.distance ? undefined : best.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => (d[i] as number[])[j] as number;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < columns; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (d[i] as number[])[j] = best;
    }
  }
  return at(rows - 1, columns - 1);
}
