import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidSimulatorStateError,
  type OpenWebSimulator,
  startOpenWebSimulator,
} from '../../local/openweb-simulator/index';

describe('OpenWeb simulator state file', () => {
  let dir: string;
  let statePath: string;
  const running: OpenWebSimulator[] = [];
  let nowMs = Date.parse('2026-11-01T00:00:00Z');
  const now = () => nowMs;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'openweb-simulator-state-'));
    statePath = join(dir, 'state.json');
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((simulator) => simulator.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<OpenWebSimulator> {
    const simulator = await startOpenWebSimulator({ statePath, now, authRequestsPerSecond: 0 });
    running.push(simulator);
    return simulator;
  }

  async function authenticate(simulator: OpenWebSimulator): Promise<string> {
    const response = await fetch(`${simulator.url}/v1/publisher/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ spot_id: 'sp_demo', apikey: 'demo-api-key' }),
    });
    return ((await response.json()) as { token: string }).token;
  }

  it('keeps exports, tokens and download links across a restart', async () => {
    // Prepare
    const first = await start();
    const token = await authenticate(first);
    const created = await fetch(`${first.url}/v4/export`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'x-spot-id': 'sp_demo',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' }),
    });
    const [exportView] = first.listExports('sp_demo');
    await first.close();

    // Act
    const second = await start();
    nowMs += 2 * 60 * 60 * 1000;
    const status = await fetch(`${second.url}/v4/export/status?id=${exportView?.id}`, {
      headers: { authorization: `Bearer ${token}`, 'x-spot-id': 'sp_demo' },
    });
    const body = (await status.json()) as { status: string; links: string[] };
    const download = await fetch(body.links[0] as string);

    // Assess
    expect(created.status).toBe(200);
    expect(status.status).toBe(200);
    expect(body.status).toBe('Done');
    expect(body.links[0]).toContain(second.url);
    expect(download.status).toBe(200);
    expect(second.listExports()).toHaveLength(1);
  });

  it('refuses a state file it cannot read, naming it', async () => {
    // Prepare
    writeFileSync(statePath, '{"version": 99}');

    // Act
    const failure = await start().catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(InvalidSimulatorStateError);
    expect((failure as Error).message).toContain(statePath);
  });
});
