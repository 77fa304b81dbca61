/**
 * A clock whose sleeps are timers that fire only when the test moves time, so
 * several concurrent sleepers see one shared timeline (unlike `VirtualClock`).
 */
export class ManualClock {
  readonly sleeps: number[] = [];
  #timers: { dueAtMs: number; wake: () => void }[] = [];

  constructor(public nowMs = 0) {}

  readonly now = (): number => this.nowMs;

  readonly sleep = (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    return new Promise((resolve) => this.#timers.push({ dueAtMs: this.nowMs + ms, wake: resolve }));
  };

  get pendingSleeps(): number {
    return this.#timers.length;
  }

  /** Moves to each due timer in turn, firing it and letting its sleeper run, up to `ms` from now. */
  async advance(ms: number): Promise<void> {
    const targetMs = this.nowMs + ms;
    await settle();
    for (;;) {
      const next = this.#timers
        .filter((timer) => timer.dueAtMs <= targetMs)
        .sort((a, b) => a.dueAtMs - b.dueAtMs)[0];
      if (next === undefined) break;
      this.#timers = this.#timers.filter((timer) => timer !== next);
      this.nowMs = Math.max(this.nowMs, next.dueAtMs);
      next.wake();
      await settle();
    }
    this.nowMs = targetMs;
  }
}

/** Lets every promise chain that can go on without a timer do so. */
export async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}
