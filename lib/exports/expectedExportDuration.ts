import type { ExportRecord } from './ExportRecord';
import { ExportStatus } from './ExportStatus';
import type { ExportDependencies } from './ports';

/** Recent completed exports of a spot that inform the first poll delay. */
export const EXPORT_HISTORY_SAMPLE_SIZE = 5;

/**
 * How long an export of this spot is expected to take, in seconds: the median of
 * its recent completed exports (start to completion), or the default when there is
 * no history. Polling first at the median finds about half the exports done at
 * the first poll; backoff handles the rest.
 */
export function expectedExportDurationSeconds(
  history: readonly ExportRecord[],
  defaultSeconds: number,
): number {
  const durations = history
    .filter((record) => record.startedAt !== undefined && record.completedAt !== undefined)
    .map(
      (record) => (Date.parse(record.completedAt as string) - Date.parse(record.startedAt as string)) / 1000,
    )
    .filter((seconds) => Number.isFinite(seconds) && seconds >= 0)
    .sort((a, b) => a - b);
  if (durations.length === 0) return defaultSeconds;
  const middle = Math.floor(durations.length / 2);
  const median =
    durations.length % 2 === 1
      ? (durations[middle] as number)
      : ((durations[middle - 1] as number) + (durations[middle] as number)) / 2;
  return Math.max(1, Math.round(median));
}

/** The first poll waits as long as this spot's recent exports took (the default without history). */
export async function firstPollDelaySecondsFor(
  deps: Pick<ExportDependencies, 'store' | 'settings'>,
  spotId: string,
): Promise<number> {
  const history = await deps.store.listExports(spotId, {
    status: ExportStatus.COMPLETED,
    limit: EXPORT_HISTORY_SAMPLE_SIZE,
  });
  return expectedExportDurationSeconds(history.items, deps.settings.defaultFirstPollDelaySeconds);
}
