import type { AuthPacer } from './AuthPacer';
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

/** Reserve a slot and sleep until it starts; throws `UpstreamAuthPacedError` when none is free soon. */
export async function waitForAuthSlot(wait: AuthSlotWait): Promise<void> {
  const slot = await wait.pacer.acquireSlot(wait.maxWaitMs);
  if (!slot.granted) throw new UpstreamAuthPacedError(wait.spotId, slot.nextFreeAtMs, wait.now());
  const waitMs = slot.sendAtMs - wait.now();
  if (waitMs > 0) await wait.sleep(waitMs);
}
