import { ProblemError } from './ProblemError';
import { ProblemType } from './ProblemType';

/**
 * 404 for an unknown export, a malformed id and another spot's export alike,
 * so probing ids tells a caller nothing.
 */
export function exportNotFound(options?: ErrorOptions): ProblemError {
  return new ProblemError(
    {
      status: 404,
      type: ProblemType.EXPORT_NOT_FOUND,
      title: 'Export not found',
      detail: 'No export with this id exists for this spot.',
    },
    options,
  );
}
