import type { StackConfig } from '../infra/stackConfig';
import type { FileCredentialsProvider } from '../lib/secrets/FileCredentialsProvider';
import { LocalRuntimeConfigError } from './errors';
import { describeError, type Say } from './runtimeReports';

/** The spots the credentials file has keys for. @throws LocalRuntimeConfigError naming the file */
export async function spotsWithCredentials(
  credentials: FileCredentialsProvider,
  path: string,
): Promise<string[]> {
  try {
    return await credentials.spotIds();
  } catch (error) {
    throw new LocalRuntimeConfigError([`LOCAL_SECRETS_FILE ${path}: ${describeError(error)}`]);
  }
}

/** Each spot's key, for the simulator to accept the very keys the handlers send. */
export async function spotKeys(
  credentials: FileCredentialsProvider,
  spots: readonly string[],
): Promise<Record<string, { apiKey: string }>> {
  const entries = await Promise.all(
    spots.map(
      async (spotId) => [spotId, { apiKey: (await credentials.getCredentials(spotId)).apiKey }] as const,
    ),
  );
  return Object.fromEntries(entries);
}

export function warnAboutScheduledSpotsWithoutCredentials(
  config: StackConfig,
  spots: readonly string[],
  say: Say,
): void {
  for (const spot of config.spots) {
    if (spot.schedules.length > 0 && !spots.includes(spot.spotId)) {
      say(`warning: ${spot.spotId} has schedules but no key in LOCAL_SECRETS_FILE; its runs will fail`);
    }
  }
}
