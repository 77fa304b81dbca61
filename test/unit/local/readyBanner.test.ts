import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCAL_DATA_DIR } from '../../../local/localDataLayout';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import { readyBanner } from '../../../local/readyBanner';

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

describe('readyBanner', () => {
  it('shows how to query the archive, with --data-dir only when the data is not where the CLI looks first', () => {
    // Act
    const atDefault = bannerFor(join(LOCAL_PROJECT_ROOT, DEFAULT_LOCAL_DATA_DIR));
    const elsewhere = bannerFor('/var/openweb-data');
    const inMemory = bannerFor(undefined);

    // Assess
    expect(atDefault).toContain('    npm run cli -- query "select count(*) from comments"   # once archived');
    expect(elsewhere).toContain(
      '    npm run cli -- query "select count(*) from comments" --data-dir /var/openweb-data   # once archived',
    );
    expect(inMemory.filter((line) => line.includes('query'))).toEqual([]);
  });
});
