import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import { EXPORT_ID, exportList, exportView, SPOT_ID } from '../../unit/cli/support/exportViews';
import { type FakeExportsApi, startFakeExportsApi } from '../../unit/cli/support/fakeExportsApi';

/** Starting the CLI through tsx takes a second or two on a busy machine. */
const CLI_PROCESS_TIMEOUT_MS = 30_000;

interface ClosedStdoutRun {
  code: number | null;
  stderr: string;
}

/** Runs `openweb-exports` as a shell pipe into `| true` would: its reader closes stdout at once. */
function runWithClosedStdout(args: string[]): Promise<ClosedStdoutRun> {
  const child = spawn(process.execPath, [join(LOCAL_PROJECT_ROOT, 'cli/openweb-exports.mjs'), ...args], {
    cwd: LOCAL_PROJECT_ROOT,
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

let api: FakeExportsApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('the openweb-exports process', () => {
  it(
    'exits quietly with its own code when its reader closed stdout (`| true`)',
    async () => {
      // Prepare: a listing long enough to need more than one write to a pipe.
      const items = Array.from({ length: 100 }, () => exportView({ status: 'COMPLETED' }));
      api = await startFakeExportsApi(() => ({ status: 200, body: exportList(items) }));

      // Act
      const run = await runWithClosedStdout(['list', '--json', '--spot', SPOT_ID, '--api', api.url]);

      // Assess
      expect(run.stderr).toBe('');
      expect(run.code).toBe(ExitCode.SUCCESS);
    },
    CLI_PROCESS_TIMEOUT_MS,
  );

  it(
    'stops watching as on Ctrl-C once its reader closed stdout, leaving the export running',
    async () => {
      // Prepare: an export that never finishes.
      api = await startFakeExportsApi(() => ({ status: 200, body: exportView({ status: 'PROCESSING' }) }));

      // Act
      const run = await runWithClosedStdout([
        'watch',
        EXPORT_ID,
        '--json',
        '--spot',
        SPOT_ID,
        '--api',
        api.url,
      ]);

      // Assess
      expect(run.code).toBe(ExitCode.INTERRUPTED);
      expect(run.stderr).toBe(
        // The hint keeps --api: pasted as it is, it reaches the API this watch did.
        `Stopped watching; the export keeps running. Abort it with: npx openweb-exports abort ${EXPORT_ID} --spot ${SPOT_ID} --api ${api.url}\n`,
      );
    },
    CLI_PROCESS_TIMEOUT_MS,
  );
});
