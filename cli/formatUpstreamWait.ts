import type { ExportView } from './ExportView';
import { formatElapsed } from './formatElapsed';

/** The API's transient error kinds in words; an unknown kind is shown as sent. */
const WAIT_KIND_WORDS: Record<string, string> = {
  throttled: 'throttled',
  unavailable: 'unavailable',
  'auth-paced': 'auth paced',
  timeout: 'timed out',
};

/**
 * Why a REQUESTED export is still waiting, from the view's `upstreamWait`:
 * `waiting for upstream: throttled, next try in 20s (3 attempts)`. Undefined
 * when the export is not waiting on the upstream.
 */
export function formatUpstreamWait(view: ExportView, nowMs: number): string | undefined {
  const wait = view.upstreamWait;
  if (view.status !== 'REQUESTED' || wait === undefined) return undefined;
  const kind = WAIT_KIND_WORDS[wait.lastErrorKind] ?? wait.lastErrorKind;
  const nextMs = wait.nextAttemptAt === undefined ? Number.NaN : Date.parse(wait.nextAttemptAt);
  const next = Number.isNaN(nextMs)
    ? ''
    : nextMs <= nowMs
      ? ', next try now'
      : `, next try in ${formatElapsed(nextMs - nowMs)}`;
  const attempts = `${wait.attempts} ${wait.attempts === 1 ? 'attempt' : 'attempts'}`;
  return `waiting for upstream: ${kind}${next} (${attempts})`;
}
