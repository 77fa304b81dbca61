import { readFileSync } from 'node:fs';
import { STACK_CONFIG_CONTEXT_KEY } from '../infra/stackConfig';
import { SPOT_ID_PATTERN } from '../lib/exports/record/spotId';
import { CliUsageError } from './errors';

/**
 * The spots a file configures, for `--spots-from`: a cdk.json (its stack configuration's
 * `spots[].spotId`), a stack configuration (`{"spots": [...]}`, as in LOCAL_STACK_CONFIG), or a
 * spots file keyed by spot id, as the local runtime's LOCAL_SECRETS_FILE (local/demo-spots.json).
 * Only the spot ids are read. @throws CliUsageError naming the file and what it lacks
 */
export function configuredSpots(path: string, command: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not a JSON file';
    throw new CliUsageError(`--spots-from ${path}: ${reason}`, command);
  }
  const spots = spotsOf(parsed);
  if (spots.length === 0) {
    throw new CliUsageError(
      `--spots-from ${path} names no spot: give a cdk.json with ${STACK_CONFIG_CONTEXT_KEY}.spots, ` +
        'a stack configuration with spots, or a spots file keyed by spot id (like local/demo-spots.json)',
      command,
    );
  }
  return spots;
}

function spotsOf(document: unknown): string[] {
  if (!isObject(document)) return [];
  const context = document.context;
  if (isObject(context)) return spotsOf(context[STACK_CONFIG_CONTEXT_KEY]);
  if (Array.isArray(document.spots)) {
    return document.spots
      .map((spot) => (isObject(spot) ? spot.spotId : undefined))
      .filter((spotId): spotId is string => typeof spotId === 'string' && SPOT_ID_PATTERN.test(spotId));
  }
  return Object.keys(document).filter((key) => SPOT_ID_PATTERN.test(key));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
