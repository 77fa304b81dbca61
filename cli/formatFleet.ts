import type { SpotStatusView } from './FleetView';
import { formatElapsed } from './formatElapsed';

const MS_PER_SECOND = 1000;

/** How bad a spot looks, worst first: stale, then gaps, then a failure or a long queue, then fine. */
export const SpotHealth = {
  STALE: 'STALE',
  GAPS: 'GAPS',
  OK: 'OK',
} as const;

export type SpotHealth = (typeof SpotHealth)[keyof typeof SpotHealth];

export function spotHealth(spot: SpotStatusView): SpotHealth {
  if (spot.stale) return SpotHealth.STALE;
  if (spot.gaps.count > 0) return SpotHealth.GAPS;
  return SpotHealth.OK;
}

const HEALTH_RANK: Record<SpotHealth, number> = { STALE: 0, GAPS: 1, OK: 2 };

/** Worst first: stale, then with gaps, then fine; within each, furthest behind first, then by id. */
export function worstFirst(spots: readonly SpotStatusView[]): SpotStatusView[] {
  return [...spots].sort(
    (a, b) =>
      HEALTH_RANK[spotHealth(a)] - HEALTH_RANK[spotHealth(b)] ||
      (b.hoursBehind ?? -1) - (a.hoursBehind ?? -1) ||
      a.spotId.localeCompare(b.spotId),
  );
}

const COLOURS: Record<SpotHealth, string> = { STALE: '\x1b[31m', GAPS: '\x1b[33m', OK: '\x1b[32m' };
const RESET = '\x1b[0m';

/**
 * One line per spot, worst first: its health, how far behind against its target, then only what
 * is worth reading (the running export, the queue, open backfills, gaps with the newest reason,
 * covered hours still to be restated, the last failure). Colour only when asked (a terminal).
 */
export function formatFleet(
  spots: readonly SpotStatusView[],
  options: { colour: boolean; nowMs: number },
): string {
  if (spots.length === 0) return 'No spots: none is configured and none has an export running or queued.\n';
  const sorted = worstFirst(spots);
  const idWidth = Math.max(...sorted.map((spot) => spot.spotId.length));
  const lines = sorted.map((spot) => {
    const health = spotHealth(spot);
    const label = health.padEnd(5);
    const shown = options.colour ? `${COLOURS[health]}${label}${RESET}` : label;
    return `${shown}  ${spot.spotId.padEnd(idWidth)}  ${describeSpot(spot, options.nowMs)}`;
  });
  const stale = sorted.filter((spot) => spot.stale).length;
  const gapped = sorted.filter((spot) => !spot.stale && spot.gaps.count > 0).length;
  const summary =
    stale + gapped === 0
      ? `All ${sorted.length} spot(s) fine.`
      : `${stale} stale, ${gapped} with gaps, ${sorted.length - stale - gapped} fine (of ${sorted.length}).`;
  return `${lines.join('\n')}\n${summary}\n`;
}

function describeSpot(spot: SpotStatusView, nowMs: number): string {
  const parts: string[] = [freshnessText(spot)];
  if (spot.running !== undefined) {
    parts.push(
      `running ${spot.running.exportId} (${spot.running.status}, ${formatElapsed(spot.running.ageSeconds * MS_PER_SECOND)})`,
    );
  }
  if (spot.queued > 0) parts.push(`${spot.queued} queued`);
  for (const backfill of spot.backfills) {
    parts.push(`backfill ${backfill.backfillId} ${backfill.windowsDone}/${backfill.windowsTotal}`);
  }
  if (spot.gaps.count > 0) {
    parts.push(
      `${spot.gaps.count} gap(s), ${spot.gaps.hours} h open, newest: ${spot.gaps.newestReason ?? '?'}`,
    );
  }
  const restatements = restatementsText(spot);
  if (restatements !== undefined) parts.push(restatements);
  if (spot.lastFailure !== undefined) {
    const ago = formatElapsed(Math.max(0, nowMs - Date.parse(spot.lastFailure.at)));
    parts.push(`last failure ${ago} ago: ${spot.lastFailure.reason}`);
  }
  return parts.join(' · ');
}

/** Covered hours still to be exported again at their restatement ages, and what waits for the budget. */
function restatementsText(spot: SpotStatusView): string | undefined {
  const { provisionalHours = 0, waiting = 0 } = spot.restatements ?? {};
  if (provisionalHours === 0 && waiting === 0) return undefined;
  const budget = waiting > 0 ? `, ${waiting} restatement(s) waiting for the daily budget` : '';
  return `${provisionalHours} h provisional${budget}`;
}

function freshnessText(spot: SpotStatusView): string {
  const target = spot.freshnessTargetHours === null ? 'no target' : `target ${spot.freshnessTargetHours} h`;
  if (spot.coveredUntil === null) return `nothing covered yet (${target})`;
  return `${spot.hoursBehind} h behind (${target}), covered until ${spot.coveredUntil}`;
}
