/** Seeds per seeded scenario in `npm test`; `npm run test:reliability:full` sets RELIABILITY_SEEDS. */
export const REDUCED_SEED_COUNT = 1;
const FIRST_SEED = 1;

/** The seeds every seeded scenario runs with: `RELIABILITY_SEEDS` of them (a count), else the reduced set. */
export function reliabilitySeeds(): number[] {
  const requested = Number.parseInt(process.env.RELIABILITY_SEEDS ?? '', 10);
  const count = Number.isInteger(requested) && requested > 0 ? requested : REDUCED_SEED_COUNT;
  return Array.from({ length: count }, (_, index) => FIRST_SEED + index);
}

/** The full run also sweeps what the reduced one samples (every crash placement and recovery). */
export function isFullRun(): boolean {
  return reliabilitySeeds().length > REDUCED_SEED_COUNT;
}
