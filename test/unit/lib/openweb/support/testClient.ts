import { OpenWebClient, type OpenWebClientOptions } from '../../../../../lib/openweb/OpenWebClient';
import type { OpenWebClientEvent } from '../../../../../lib/openweb/OpenWebClientEvent';
import { BASE_URL, createFakeUpstream, FakeCredentials, type Routes, VirtualClock } from './fakeUpstream';

/**
 * The tests' retry budget, wider than the functions' default (lib/settings) so that a test of
 * `Retry-After` or backoff is not cut short by it; the default itself has its own test.
 */
export const TEST_RETRY_BUDGET_MS = 20_000;

export interface TestClientSetup {
  routes?: Routes;
  options?: Partial<OpenWebClientOptions>;
  credentials?: FakeCredentials;
  /** Use real timers and Date.now instead of a virtual clock. */
  realTime?: boolean;
}

/** A client over a fake upstream, on a virtual clock, with a mid-range jitter draw. */
export function createTestClient(setup: TestClientSetup = {}) {
  const clock = new VirtualClock();
  const now = setup.realTime ? Date.now : clock.now;
  const upstream = createFakeUpstream(setup.routes, now);
  const credentials = setup.credentials ?? new FakeCredentials();
  const events: OpenWebClientEvent[] = [];
  const client = new OpenWebClient({
    authBaseUrl: BASE_URL,
    exportBaseUrl: BASE_URL,
    credentials,
    fetch: upstream.fetch,
    random: () => 0.5,
    onEvent: (event) => events.push(event),
    ...(setup.realTime ? {} : { now: clock.now, sleep: clock.sleep }),
    ...setup.options,
    retry: { totalBudgetMs: TEST_RETRY_BUDGET_MS, ...setup.options?.retry },
  });
  return { client, upstream, clock, credentials, events };
}

export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-error: ${String(error)}`);
  }
  throw new Error('expected a rejection');
}
