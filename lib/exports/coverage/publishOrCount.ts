import type { RecordDependencies } from '../record/ports';

/**
 * Announces what already happened (an export's end, a gap, a finished archive, a spot's
 * freshness). The announcement is never a reason to leave the rest of the work undone: when the
 * publisher could not get it out (it sends a refused entry again itself), the miss is counted as
 * `EventsNotPublished` and the caller carries on. True when it was published.
 */
export async function publishOrCount(
  deps: Pick<RecordDependencies, 'metrics'>,
  publish: () => Promise<void>,
): Promise<boolean> {
  try {
    await publish();
    return true;
  } catch {
    deps.metrics.count('EventsNotPublished');
    return false;
  }
}
