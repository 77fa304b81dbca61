import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLocalRuntimeSettings } from '../../local/localRuntimeSettings';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';
import { type LocalRuntime, startLocalRuntime } from '../../local/startLocalRuntime';

// A start without a cached state machine synthesizes the stack first.
const START_TIMEOUT_MS = 120_000;
const CUSTOM_SPOT = 'sp_custom';
const CUSTOM_KEY = 'custom-key-from-the-file';

function auth(runtime: LocalRuntime, spotId: string, apiKey: string): Promise<Response> {
  return fetch(`${runtime.simulatorUrl}/v1/publisher/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ spot_id: spotId, apikey: apiKey }),
  });
}

describe('the local runtime’s simulator', () => {
  let directory: string;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'openweb-exports-local-'));
    const secretsFile = join(directory, 'spots.json');
    writeFileSync(secretsFile, JSON.stringify({ [CUSTOM_SPOT]: { apiKey: CUSTOM_KEY } }));
    const settings = parseLocalRuntimeSettings(
      {
        PORT: '0',
        SIMULATOR_PORT: '0',
        LOCAL_DATA_DIR: 'memory',
        LOCAL_SECRETS_FILE: secretsFile,
        LOCAL_STACK_CONFIG: '{}',
        LOG_LEVEL: 'SILENT',
        SIMULATOR_AUTH_REQUESTS_PER_SECOND: '0',
        SIMULATOR_EXPORT_REQUESTS_PER_SECOND: '1',
      },
      { cwd: directory, projectRoot: LOCAL_PROJECT_ROOT },
    );
    runtime = await startLocalRuntime({ settings });
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await runtime?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('accepts the spots and keys of LOCAL_SECRETS_FILE, not only its demo spots', async () => {
    // Act
    const response = await fetch(`${runtime.apiUrl}/exports`, {
      method: 'POST',
      headers: { 'x-spot-id': CUSTOM_SPOT, 'content-type': 'application/json' },
      body: JSON.stringify({ conversationId: `${CUSTOM_SPOT}_post1` }),
    });

    // Assess
    expect(response.status).toBe(202);
    expect(runtime.spots).toEqual([CUSTOM_SPOT]);
    expect((await auth(runtime, 'sp_demo', 'demo-api-key')).status).toBe(401);
  });

  it('applies the simulator rate limits from SIMULATOR_AUTH_ and SIMULATOR_EXPORT_REQUESTS_PER_SECOND', async () => {
    // Prepare: the limit is 1 export call per second, auth unlimited
    const first = await auth(runtime, CUSTOM_SPOT, CUSTOM_KEY);
    const second = await auth(runtime, CUSTOM_SPOT, CUSTOM_KEY);
    const { token } = (await second.json()) as { token: string };
    const list = () =>
      fetch(`${runtime.simulatorUrl}/v4/export/list`, {
        headers: { authorization: `Bearer ${token}`, 'x-spot-id': CUSTOM_SPOT },
      });

    // Act
    const answers = [await list(), await list()];
    const refusals = await fetch(`${runtime.simulatorUrl}/__simulator/rate-limit-refusals`);

    // Assess
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(answers.map((answer) => answer.status)).toContain(429);
    expect(((await refusals.json()) as { exportCalls: number }).exportCalls).toBeGreaterThanOrEqual(1);
  });
});
