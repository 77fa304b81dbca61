import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AUTH_ROUTE,
  CREATE_ROUTE,
  type RecordedRequest,
  STATUS_ROUTE,
  TEST_SPOT,
} from './support/fakeUpstream';
import { createTestClient } from './support/testClient';

const processing = { status: 200, json: { id: 'exp_1', status: 'Processing' } };

/** Answers after `ms` of (fake) timers. */
function slowReply(ms: number, reply: () => Response) {
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return reply();
  };
}

describe('OpenWebClient upstream governor', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps at most maxConcurrentRequests upstream requests open, auth calls included', async () => {
    // Prepare
    vi.useFakeTimers();
    const auth = slowReply(50, () => Response.json({ token: `opaque-${crypto.randomUUID()}` }));
    const status = slowReply(50, () => Response.json(processing.json));
    let open = 0;
    let mostOpen = 0;
    const counted = (answer: () => Promise<Response>) => async () => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      try {
        return await answer();
      } finally {
        open -= 1;
      }
    };
    const { client, upstream } = createTestClient({
      realTime: true,
      options: { maxConcurrentRequests: 3 },
      routes: { [AUTH_ROUTE]: counted(auth), [STATUS_ROUTE]: counted(status) },
    });
    const spots = Array.from({ length: 8 }, (_, index) => `sp_governed${index}`);

    // Act
    const reports = Promise.all(spots.map((spotId) => client.getExportStatus(spotId, 'exp_1')));
    await vi.advanceTimersByTimeAsync(5_000);

    // Assess
    expect(await reports).toHaveLength(8);
    expect(upstream.requestsTo(AUTH_ROUTE)).toHaveLength(8);
    expect(upstream.requestsTo(STATUS_ROUTE)).toHaveLength(8);
    expect(mostOpen).toBe(3);
  });

  it('starts at most maxRequestsPerSecond upstream requests per second, auth calls included', async () => {
    // Prepare
    const startedAt: [string, number][] = [];
    const { client, clock } = createTestClient({
      options: { maxRequestsPerSecond: 2 },
      routes: {
        [STATUS_ROUTE]: (request: RecordedRequest) => {
          startedAt.push([request.url.pathname, clock.now()]);
          return Response.json(processing.json);
        },
      },
    });
    const t0 = clock.now();

    // Act
    await client.getExportStatus(TEST_SPOT, 'exp_1');
    await client.getExportStatus(TEST_SPOT, 'exp_1');

    // Assess: the auth call took the first slot
    expect(startedAt.map(([path, atMs]) => [path, atMs - t0])).toEqual([
      ['/v4/export/status', 500],
      ['/v4/export/status', 1_000],
    ]);
  });

  it('does not count time spent queued against the request timeout, so a queued create is not ambiguous', async () => {
    // Prepare: one place; the create waits 6 s behind a status call, then takes 3 s itself
    vi.useFakeTimers();
    const slowStatus = slowReply(6_000, () => Response.json(processing.json));
    const slowCreate = slowReply(3_000, () =>
      Response.json({ status_link: 'http://upstream.test/v4/export/status?id=exp_2' }),
    );
    const { client, events } = createTestClient({
      realTime: true,
      options: { maxConcurrentRequests: 1, requestTimeoutMs: 8_000 },
      routes: { [STATUS_ROUTE]: slowStatus, [CREATE_ROUTE]: slowCreate },
    });
    await client.authenticate(TEST_SPOT);
    const status = client.getExportStatus(TEST_SPOT, 'exp_1');
    await vi.advanceTimersByTimeAsync(0);

    // Act
    const created = client.createExport(TEST_SPOT, { conversationId: `${TEST_SPOT}_p1` });
    await vi.advanceTimersByTimeAsync(10_000);

    // Assess
    await expect(status).resolves.toMatchObject({ rawStatus: 'Processing' });
    await expect(created).resolves.toMatchObject({ exportId: 'exp_2' });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'request', operation: 'createExport', status: 200, queuedMs: 6_000 }),
    );
  });
});
