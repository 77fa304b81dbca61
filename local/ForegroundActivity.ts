/**
 * Requests the local API is answering right now. On one machine the API, the workflow's tasks and
 * the schedules share one process; in AWS each runs on its own compute, and a burst of workflow
 * tasks never slows an API answer. Background work waits here until no request is in flight, for
 * at most a bounded time, so it cannot starve under a steady stream of requests.
 */
export class ForegroundActivity {
  readonly #maxDeferMs: number;
  #inFlight = 0;
  #waiters = new Set<() => void>();

  constructor(options: { maxDeferMs: number }) {
    this.#maxDeferMs = options.maxDeferMs;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Marks a request in flight; the returned function (idempotent) marks it finished. */
  begin(): () => void {
    this.#inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#inFlight--;
      if (this.#inFlight === 0) this.#wakeAll();
    };
  }

  /** Resolves once no request is in flight, or after the bounded deferral, whichever comes first. */
  whenIdle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.#maxDeferMs);
      timer.unref();
      this.#waiters.add(wake);
    });
  }

  #wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
