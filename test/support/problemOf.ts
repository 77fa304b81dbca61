import { ProblemError } from '../../lib/http/ProblemError';
import { problemForError } from '../../lib/http/problemForError';

/** The problem a request reader throws, as the API renders it; fails the test if the reader returns. */
export function problemOf(action: () => unknown) {
  try {
    action();
  } catch (error) {
    if (error instanceof ProblemError) return problemForError(error);
    throw error;
  }
  throw new Error('expected a ProblemError');
}
