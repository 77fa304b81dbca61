import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HandlerNames } from '../../../lib/http/routeTable';
import { DEFAULT_LOCAL_DATA_DIR } from '../../../lib/settings/localRuntimeLayout';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import { readyBanner } from '../../../local/readyBanner';

const API = 'http://127.0.0.1:3000';

function banner(): string {
  return readyBanner({
    runtime: {
      apiUrl: API,
      simulatorUrl: 'http://127.0.0.1:4010',
      dataDir: '/tmp/data',
      spots: ['sp_demo'],
      schedules: [
        {
          name: 'Reconciler',
          description: 'repairs active exports',
          expression: 'rate(5 minutes)',
          target: HandlerNames.LIST,
          localTiming: 'every 3 s',
        },
      ],
    },
    timeScale: 0.01,
    secretsFile: 'local/demo-spots.json',
    startupMs: 4_200,
    nowMs: Date.parse('2026-11-24T10:00:00Z'),
  }).join('\n');
}

function bannerFor(dataDir: string | undefined): string[] {
  return readyBanner({
    runtime: {
      apiUrl: 'http://127.0.0.1:3000',
      simulatorUrl: 'http://127.0.0.1:4010',
      ...(dataDir !== undefined && { dataDir }),
      spots: ['sp_demo'],
      schedules: [],
    },
    timeScale: 0.01,
    secretsFile: 'local/demo-spots.json',
    startupMs: 1_000,
    nowMs: Date.parse('2024-05-02T10:00:00Z'),
  });
}

describe('the ready banner', () => {
  it('points at every local-only route: schedules, events and metrics', () => {
    // Act
    const text = banner();

    // Assess
    expect(text).toContain(`curl -s ${API}/_local/schedules`);
    expect(text).toContain(`curl -s ${API}/_local/events`);
    expect(text).toContain(`curl -s ${API}/_local/metrics`);
  });

  it('gives a CLI command that runs as pasted in a clone', () => {
    // Act
    const text = banner();

    // Assess
    expect(text).toContain('    npx openweb-exports watch <exportId> --spot sp_demo\n');
    expect(text).not.toContain('npm run cli');
  });

  it('ends its things to try with the fleet at a glance and the report', () => {
    // Act
    const lines = banner().split('\n');
    const stop = lines.indexOf('  Ctrl-C stops.');

    // Assess
    expect(lines.slice(stop - 2, stop)).toEqual([
      '    npx openweb-exports fleet   # every spot at a glance, worst first',
      '    npx openweb-exports report --out fleet.html   # the fleet as one HTML page',
    ]);
  });

  it('shows how to query the archive, with --data-dir only when the data is not where the CLI looks first', () => {
    // Act
    const atDefault = bannerFor(join(LOCAL_PROJECT_ROOT, DEFAULT_LOCAL_DATA_DIR));
    const elsewhere = bannerFor('/var/openweb-data');
    const inMemory = bannerFor(undefined);

    // Assess
    expect(atDefault).toContain(
      '    npx openweb-exports query "select count(*) from comments"   # once archived',
    );
    expect(elsewhere).toContain(
      '    npx openweb-exports query "select count(*) from comments" --data-dir /var/openweb-data   # once archived',
    );
    expect(inMemory.filter((line) => line.includes('query'))).toEqual([]);
  });
});
