import type { ExportRecord } from '../record/ExportRecord';
import type { ExportStore } from '../record/ExportStore';
import { IllegalTransitionError, TransitionConflictError } from '../record/errors';
import { transitionExport } from '../record/transitionExport';
import { type PollObservation, planPollUpdate } from './planPollUpdate';

export const DEFAULT_POLL_BOOKKEEPING_INTERVAL_SECONDS = 5 * 60;
// Bounds re-deciding after lost races; each retry follows a write someone else made.
const RECORD_POLL_MAX_ATTEMPTS = 3;

export interface RecordPollOptions {
  /** Minimum spacing of writes that only bump lastPolledAt/pollCount; 0 = every poll. */
  pollBookkeepingIntervalSeconds?: number;
}

export interface RecordPollResult {
  /** `unchanged`: nothing written. `bookkept`: only lastPolledAt/pollCount. `updated`: status, upstream status or links. */
  outcome: 'unchanged' | 'bookkept' | 'updated';
  record: ExportRecord;
}

/**
 * Records what a poll saw, writing only when something changed (or bookkeeping is due);
 * when another writer got there first, decides again against what they wrote (it may
 * already say the same).
 * @throws ExportNotFoundError, IllegalTransitionError, TransitionConflictError
 */
export async function recordPoll(
  store: ExportStore,
  current: ExportRecord,
  observation: PollObservation,
  options: RecordPollOptions = {},
): Promise<RecordPollResult> {
  const pollBookkeepingIntervalSeconds =
    options.pollBookkeepingIntervalSeconds ?? DEFAULT_POLL_BOOKKEEPING_INTERVAL_SECONDS;
  let record = current;
  for (let attempt = 1; ; attempt++) {
    const plan = planPollUpdate(record, observation, { pollBookkeepingIntervalSeconds });
    if (plan.kind === 'unchanged') return { outcome: 'unchanged', record };
    try {
      const written = await transitionExport(store, record.spotId, record.exportId, {
        to: plan.to,
        from: record.status,
        expectedVersion: record.version,
        changes: plan.changes,
        ...(plan.kind === 'update' && plan.remove !== undefined && { remove: plan.remove }),
      });
      return { outcome: plan.kind === 'update' ? 'updated' : 'bookkept', record: written };
    } catch (error) {
      const newer =
        error instanceof TransitionConflictError || error instanceof IllegalTransitionError
          ? error.current
          : undefined;
      if (newer === undefined || attempt >= RECORD_POLL_MAX_ATTEMPTS) throw error;
      record = newer;
    }
  }
}
