/** The leading items whose JSON (plus a separator each) fits in `maxBytes`. */
export function itemsWithin<T>(items: readonly T[], maxBytes: number): T[] {
  let bytes = 0;
  const kept: T[] = [];
  for (const item of items) {
    bytes += Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    if (bytes > maxBytes) break;
    kept.push(item);
  }
  return kept;
}
