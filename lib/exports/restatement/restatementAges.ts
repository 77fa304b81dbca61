import { isoDurationSeconds } from '../time/isoDurationSeconds';
import { InvalidRestatementAgesError } from './errors';

const SECONDS_PER_DAY = 86_400;

/** A schedule names at most this many restatement ages: each is a full re-export of every window. */
export const MAX_RESTATEMENT_AGES = 4;
/** The oldest restatement age: moderation that late is rare, and each age re-reads every window once more. */
export const MAX_RESTATEMENT_AGE_SECONDS = 90 * SECONDS_PER_DAY;

/**
 * What is wrong with a schedule's `restate` ages, or undefined when nothing is: at most
 * `MAX_RESTATEMENT_AGES` fixed-length ISO 8601 durations (`P1D`, `PT12H`, `P1W`), each at least the
 * schedule's lag (a window is exported first at that age) and longer than zero, at most
 * `MAX_RESTATEMENT_AGE_SECONDS`, none twice.
 */
export function restatementAgesProblem(ages: readonly string[], lagSeconds: number): string | undefined {
  if (ages.length > MAX_RESTATEMENT_AGES)
    return `must list at most ${MAX_RESTATEMENT_AGES} ages (each one exports every window again)`;
  const seen = new Set<number>();
  for (const age of ages) {
    const seconds = isoDurationSeconds(age);
    if (seconds === undefined)
      return `${JSON.stringify(age)} must be an ISO 8601 duration in weeks, days, hours, minutes or seconds, like P1D or P7D`;
    if (seconds <= 0) return `${age} must be longer than zero`;
    if (seconds < lagSeconds)
      return `${age} must be at least the schedule's lag: its windows are that old when first exported`;
    if (seconds > MAX_RESTATEMENT_AGE_SECONDS)
      return `${age} must be at most P${MAX_RESTATEMENT_AGE_SECONDS / SECONDS_PER_DAY}D`;
    if (seen.has(seconds)) return `${age} is listed twice`;
    seen.add(seconds);
  }
  return undefined;
}

/** The ages, shortest first. */
export function sortedAges(ages: readonly string[]): string[] {
  return [...ages].sort((a, b) => (isoDurationSeconds(a) ?? 0) - (isoDurationSeconds(b) ?? 0));
}

/** The ages, checked and shortest first. @throws InvalidRestatementAgesError */
export function checkedRestatementAges(ages: readonly string[], lagSeconds: number): string[] {
  const problem = restatementAgesProblem(ages, lagSeconds);
  if (problem !== undefined) throw new InvalidRestatementAgesError(ages, problem);
  return sortedAges(ages);
}
