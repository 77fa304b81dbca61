import { isClassified } from '../errors/ClassifiedError';
import type { ProblemInit } from '../errors/problems';

/**
 * The problem a known error means for the API caller, as the error says itself, or
 * undefined for anything unknown (which the caller only ever sees as a generic 500).
 */
export function problemForError(error: unknown): ProblemInit | undefined {
  return isClassified(error) ? error.problem : undefined;
}
