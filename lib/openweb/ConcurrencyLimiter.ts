/**
 * A counting semaphore: at most `maxConcurrent` tasks run at once, the others wait
 * in arrival order. A finishing task hands its permit to the next waiter directly,
 * so a newcomer can never overtake the queue.
 */
export class ConcurrencyLimiter {
  readonly #maxConcurrent: number;
  readonly #waiting: (() => void)[] = [];
  #active = 0;

  constructor(maxConcurrent: number) {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
      throw new RangeError(`maxConcurrent must be an integer ≥ 1, got ${maxConcurrent}`);
    }
    this.#maxConcurrent = maxConcurrent;
  }

  /** Tasks holding a permit. */
  get active(): number {
    return this.#active;
  }

  /** Tasks waiting for a permit. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `task` once a permit is free; the permit is given back however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(): Promise<void> {
    if (this.#active < this.#maxConcurrent) {
      this.#active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#active -= 1;
    else next();
  }
}
