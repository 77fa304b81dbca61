/** A deterministic source of numbers in [0, 1). */
export type SeededRandom = () => number;

/** mulberry32: tiny and good enough to make simulated faults and data repeatable from one seed. */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A seed for one named stream derived from the base seed (FNV-1a over the name), so that
 * drawing from one stream never shifts the numbers another stream produces.
 */
export function deriveSeed(seed: number, streamName: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < streamName.length; index += 1) {
    hash ^= streamName.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Hex digits drawn from a seeded stream, for identifiers that are repeatable yet look random. */
export function randomHex(random: SeededRandom, length: number): string {
  let hex = '';
  while (hex.length < length) {
    hex += Math.floor(random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  }
  return hex.slice(0, length);
}
