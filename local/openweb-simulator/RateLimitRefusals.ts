/** Calls the simulator refused with 429 because a configured rate limit was exceeded (not injected faults). */
export interface RateLimitRefusals {
  /** `POST /v1/publisher/auth` over `authRequestsPerSecond`. */
  auth: number;
  /** `/v4/export*` calls over `exportRequestsPerSecond`. */
  exportCalls: number;
}
