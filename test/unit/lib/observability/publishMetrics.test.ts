import { describe, expect, it } from 'vitest';
import { publishMetrics } from '../../../../lib/observability/publishMetrics';

describe('publishMetrics', () => {
  it('publishes what the invocation counted when it ends, whether it succeeded or failed', async () => {
    // Prepare
    let published = 0;
    const middleware = publishMetrics({
      count: () => undefined,
      publish: () => {
        published += 1;
      },
    });

    // Act
    await middleware.after?.({} as never);
    await middleware.onError?.({} as never);

    // Assess
    expect(published).toBe(2);
    expect(middleware.before).toBeUndefined();
  });
});
