import { ProblemType } from '../errors/problems';
import { ProblemError } from './ProblemError';

/**
 * 404 for an unknown export, a malformed id and another spot's export alike,
 * so probing ids tells a caller nothing.
 */
export function exportNotFound(options?: ErrorOptions): ProblemError {
  return new ProblemError({ type: ProblemType.EXPORT_NOT_FOUND }, options);
}
