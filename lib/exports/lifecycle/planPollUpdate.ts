import type { ExportChangeField, ExportChanges, ExportRecord } from '../record/ExportRecord';
import { ExportStatus, isTerminal } from '../record/ExportStatus';
import { IllegalTransitionError } from '../record/errors';
import { canTransition } from '../record/exportTransitions';

/** What one upstream status call said, already mapped onto our states. */
export interface PollObservation {
  status: ExportStatus;
  upstreamStatus?: string;
  links?: string[];
  failureReason?: string;
  /** ISO 8601 instant of the status call. */
  observedAt: string;
}

export interface PollPlanOptions {
  /** Minimum spacing of bookkeeping-only writes (lastPolledAt, pollCount); 0 = every poll. */
  pollBookkeepingIntervalSeconds: number;
}

export type PollPlan =
  | { kind: 'unchanged' }
  | { kind: 'update'; to: ExportStatus; changes: ExportChanges; remove?: readonly ExportChangeField[] }
  | { kind: 'bookkeeping'; to: ExportStatus; changes: ExportChanges };

const MS_PER_SECOND = 1000;

/**
 * Decides what, if anything, a poll writes. The rule: a poll that sees no
 * change writes nothing, except lastPolledAt/pollCount at most once per
 * `pollBookkeepingIntervalSeconds`, so "not polled since" lags by up to that
 * interval and its readers (the reconciler) must allow for it.
 */
export function planPollUpdate(
  current: ExportRecord,
  observation: PollObservation,
  options: PollPlanOptions,
): PollPlan {
  const to = targetStatus(current.status, observation.status);

  if (isTerminal(current.status)) {
    if (to === current.status) return { kind: 'unchanged' };
    throw new IllegalTransitionError({ from: current.status, to, exportId: current.exportId, current });
  }
  if (!canTransition(current.status, to)) {
    throw new IllegalTransitionError({ from: current.status, to, exportId: current.exportId, current });
  }

  const bookkeeping: ExportChanges = {
    lastPolledAt: observation.observedAt,
    pollCount: current.pollCount + 1,
  };
  const upstreamStatusChanged =
    observation.upstreamStatus !== undefined && observation.upstreamStatus !== current.upstreamStatus;
  const linksChanged = observation.links !== undefined && !sameLinks(observation.links, current.links);

  if (to !== current.status || upstreamStatusChanged || linksChanged) {
    const changes: ExportChanges = { ...bookkeeping };
    if (upstreamStatusChanged) changes.upstreamStatus = observation.upstreamStatus;
    if (linksChanged) changes.links = observation.links;
    if (isTerminal(to) && current.completedAt === undefined) changes.completedAt = observation.observedAt;
    // The last poll that saw it running: with completedAt, when the upstream finished it.
    if (isTerminal(to) && current.lastPolledAt !== undefined && current.processingSeenAt === undefined)
      changes.processingSeenAt = current.lastPolledAt;
    if (to === ExportStatus.FAILED && observation.failureReason !== undefined) {
      changes.failureReason = observation.failureReason;
    }
    // An export that completed after all (its deadline abort came too late) failed at nothing:
    // the reason the abort wrote goes.
    if (to === ExportStatus.COMPLETED && current.failureReason !== undefined) {
      return { kind: 'update', to, changes, remove: ['failureReason'] };
    }
    return { kind: 'update', to, changes };
  }

  if (
    isBookkeepingDue(current.lastPolledAt, observation.observedAt, options.pollBookkeepingIntervalSeconds)
  ) {
    return { kind: 'bookkeeping', to, changes: bookkeeping };
  }
  return { kind: 'unchanged' };
}

// The upstream keeps saying "processing" until our abort takes effect; that is not a change.
function targetStatus(current: ExportStatus, observed: ExportStatus): ExportStatus {
  return current === ExportStatus.ABORTING && observed === ExportStatus.PROCESSING ? current : observed;
}

function sameLinks(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((link, index) => link === b[index]);
}

function isBookkeepingDue(
  lastPolledAt: string | undefined,
  observedAt: string,
  intervalSeconds: number,
): boolean {
  if (lastPolledAt === undefined) return true;
  const elapsedMs = Date.parse(observedAt) - Date.parse(lastPolledAt);
  // An unparsable stored timestamp must not block bookkeeping forever.
  return Number.isNaN(elapsedMs) || elapsedMs >= intervalSeconds * MS_PER_SECOND;
}
