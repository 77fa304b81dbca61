import { AUTH_PACING_MARGIN_SHARE, type AuthPacer } from './AuthPacer';
import { UpstreamAuthPacedError } from './errors';

/**
 * How long an auth request may wait for its paced slot. Short on purpose: a
 * caller that would wait longer fails with `UpstreamAuthPacedError` and its
 * workflow retries later, instead of a function sitting idle.
 */
export const DEFAULT_AUTH_SLOT_MAX_WAIT_MS = 2_000;

export interface AuthSlotWait {
  pacer: AuthPacer;
  maxWaitMs: number;
  spotId: string;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * How late a request may still use its slot: the interval's margin. A request
 * woken later than this (a busy event loop) could arrive less than 1 / rate
 * before the next slot's request, so it gives its slot up and takes another.
 */
export function authSlotLateToleranceMs(intervalMs: number): number {
  return Math.round((intervalMs * AUTH_PACING_MARGIN_SHARE) / (1 + AUTH_PACING_MARGIN_SHARE));
}

/**
 * Reserve a slot and sleep until it starts; call it right before sending.
 * Throws `UpstreamAuthPacedError` when no slot is free within `maxWaitMs`.
 */
export async function waitForAuthSlot(wait: AuthSlotWait): Promise<void> {
  const { pacer, now, sleep } = wait;
  const deadlineMs = now() + wait.maxWaitMs;
  const toleranceMs = authSlotLateToleranceMs(pacer.intervalMs);
  for (;;) {
    const slot = await pacer.acquireSlot(Math.max(0, deadlineMs - now()));
    if (!slot.granted) throw new UpstreamAuthPacedError(wait.spotId, slot.nextFreeAtMs, now());
    const waitMs = slot.sendAtMs - now();
    if (waitMs > 0) await sleep(waitMs);
    if (now() - slot.sendAtMs <= toleranceMs) return;
  }
}
