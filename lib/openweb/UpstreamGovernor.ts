import { SETTINGS } from '../settings/settingsTable';
import { ConcurrencyLimiter } from './ConcurrencyLimiter';
import { RequestRateLimiter } from './RequestRateLimiter';

/** As the functions are configured by default (lib/settings). */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = SETTINGS.upstreamMaxConcurrency.default;

export interface UpstreamGovernorOptions {
  /** Upstream HTTP requests in flight at once, at most. */
  maxConcurrentRequests: number;
  /** Upstream HTTP requests started per second, at most; undefined = no limit. */
  maxRequestsPerSecond: number | undefined;
  /** Epoch ms. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Caps what one client sends upstream: how many requests are in flight and, optionally,
 * how many start per second. Applied to each HTTP request (each attempt, auth included),
 * so retries and re-authentications are counted like any other request.
 */
export class UpstreamGovernor {
  readonly #concurrency: ConcurrencyLimiter;
  readonly #rate: RequestRateLimiter | undefined;

  constructor(options: UpstreamGovernorOptions) {
    this.#concurrency = new ConcurrencyLimiter(options.maxConcurrentRequests);
    this.#rate =
      options.maxRequestsPerSecond === undefined
        ? undefined
        : new RequestRateLimiter({
            requestsPerSecond: options.maxRequestsPerSecond,
            now: options.now,
            sleep: options.sleep,
          });
  }

  /** Requests in flight. */
  get active(): number {
    return this.#concurrency.active;
  }

  /** Requests waiting for a place. */
  get waiting(): number {
    return this.#concurrency.waiting;
  }

  /**
   * Runs `request` once a place is free and its start slot has come. The slot is taken
   * after the place, so requests released together still start one interval apart.
   */
  run<T>(request: () => Promise<T>): Promise<T> {
    return this.#concurrency.run(async () => {
      await this.#rate?.waitForSlot();
      return request();
    });
  }
}
