import type { Logger } from '@aws-lambda-powertools/logger';
import { isClassified } from '../errors/ClassifiedError';

/**
 * A failure of an event no API sent (a workflow task, a schedule), which propagates to its
 * caller, logged at the level the error asks for: routine outcomes at INFO, so that ERROR lines
 * mean unexpected failures only (the alarm counts them).
 */
export function logTaskError(logger: Logger, error: unknown): void {
  const level = isClassified(error) ? error.logLevel : 'error';
  if (level === 'info') logger.info('Task outcome', { outcome: (error as Error).name });
  else if (level === 'warn') logger.warn('Task failed; its caller decides what follows', { error });
  else logger.error('Task failed with an unexpected error', { error });
}
