import { setTimeout as sleep } from 'node:timers/promises';
import { ErasureStatus } from '../lib/exports/erasure/ErasureRecord';
import { type ErasureDependencies, runErasure } from '../lib/exports/erasure/runErasure';

/** How long a local run holds an erasure; a run that died is taken up after it by the next start. */
export const LOCAL_ERASURE_LEASE_SECONDS = 120;
/** How long a run waits before looking again when an archive was in progress or another run held it. */
const RETRY_DELAY_MS = 1_000;
/** At most this many RUNNING erasures are taken up at a start. */
const RESUME_BATCH = 100;
/**
 * One runtime holds a data directory at a time (./instanceGuard.ts), so every local run is the
 * same run: a runtime started after one that died re-enters its lease instead of waiting for it.
 */
const LOCAL_RUN_ID = 'local-runtime';
/** Later than any lease: at a start every RUNNING erasure is taken up, its lease held by no living run. */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

export interface LocalErasuresOptions {
  deps: ErasureDependencies;
  /** Work the runtime waits for at stop (LocalInvocations.track). */
  track: <T>(work: Promise<T>) => Promise<T>;
  say: (line: string) => void;
  /** True once the runtime is stopping: no new pass begins. */
  stopping: () => boolean;
}

/**
 * Runs erasures on this machine without a caller, as the deployment would: each one asked for is
 * run to its end (COMPLETED or FAILED) in the background, looking again while an archive that
 * began before the user was suppressed is still being written; a RUNNING erasure left by a
 * runtime that stopped or died is taken up again at the next start, where it was.
 */
export class LocalErasures {
  readonly #options: LocalErasuresOptions;
  readonly #running = new Set<string>();

  constructor(options: LocalErasuresOptions) {
    this.#options = options;
  }

  /** Starts running the erasure in the background (once per erasure at a time). */
  start(spotId: string, erasureId: string): void {
    const key = `${spotId}/${erasureId}`;
    if (this.#running.has(key)) return;
    this.#running.add(key);
    void this.#options
      .track(this.#run(spotId, erasureId))
      .catch((error: unknown) => this.#options.say(`erasure ${erasureId} stopped: ${String(error)}`))
      .finally(() => this.#running.delete(key));
  }

  /** Takes up every RUNNING erasure (a run of an earlier start died with it); answers how many. */
  async resume(): Promise<number> {
    const running = await this.#options.deps.erasures.findRunning(END_OF_TIME, RESUME_BATCH);
    for (const record of running) this.start(record.spotId, record.erasureId);
    return running.length;
  }

  async #run(spotId: string, erasureId: string): Promise<void> {
    const { deps, say, stopping } = this.#options;
    while (!stopping()) {
      const { outcome, record } = await runErasure(deps, {
        spotId,
        erasureId,
        runId: LOCAL_RUN_ID,
        leaseSeconds: LOCAL_ERASURE_LEASE_SECONDS,
      });
      if (outcome === 'finished') {
        if (record?.status === ErasureStatus.COMPLETED)
          say(`erasure ${erasureId} of ${spotId} completed: ${record.files.length} file(s) rewritten`);
        else if (record?.status === ErasureStatus.FAILED)
          say(`erasure ${erasureId} of ${spotId} failed: ${record.reason ?? 'no reason given'}`);
        return;
      }
      await sleep(RETRY_DELAY_MS);
    }
  }
}

/** The erasure an answer of `POST /spots/{spotId}/erasures` accepted, if `result` is one. */
export function erasureAcceptedBy(
  event: unknown,
  result: unknown,
): { spotId: string; erasureId: string } | undefined {
  const routeKey = (event as { routeKey?: unknown } | null)?.routeKey;
  if (routeKey !== 'POST /spots/{spotId}/erasures') return undefined;
  const answer = result as { statusCode?: unknown; body?: unknown } | null;
  if (answer?.statusCode !== 202 || typeof answer.body !== 'string') return undefined;
  const body = JSON.parse(answer.body) as { spotId?: unknown; erasureId?: unknown };
  if (typeof body.spotId !== 'string' || typeof body.erasureId !== 'string') return undefined;
  return { spotId: body.spotId, erasureId: body.erasureId };
}
