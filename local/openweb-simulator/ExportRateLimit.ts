import { SETTINGS } from '../../lib/settings/settingsTable';
import { type RateLimitAdmission, SlidingWindowRateLimiter } from './SlidingWindowRateLimiter';

/** Whose `/v4/export*` calls one limit counts together. */
export const EXPORT_RATE_LIMIT_SCOPES = SETTINGS.simulatorExportRateLimitScope.kind.values;
export type ExportRateLimitScope = (typeof EXPORT_RATE_LIMIT_SCOPES)[number];

/** Without an `x-spot-id`, calls share one count, so a missing header is no way around the limit. */
const NO_SPOT_KEY = '';

/**
 * The upstream documents no limit on export calls; this one lets a run show what happens
 * under one. Counted per client address or per spot (the `x-spot-id` header, read before
 * the token is checked, as a gateway in front of the API would).
 */
export class ExportRateLimit {
  readonly #limiter: SlidingWindowRateLimiter;

  constructor(
    requestsPerSecond: number,
    private readonly scope: ExportRateLimitScope,
  ) {
    this.#limiter = new SlidingWindowRateLimiter(requestsPerSecond);
  }

  admit(call: { clientAddress: string; spotId: string | undefined }, now: number): RateLimitAdmission {
    const key = this.scope === 'spot' ? (call.spotId ?? NO_SPOT_KEY) : call.clientAddress;
    return this.#limiter.admit(key, now);
  }
}
