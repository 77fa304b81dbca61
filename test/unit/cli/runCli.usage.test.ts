import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import { EXPORT_ID } from './support/exportViews';
import { createTestIo } from './support/testIo';

function failingFetch(): typeof fetch {
  return async () => {
    throw new Error('no request may be sent for a usage error');
  };
}

describe('runCli usage', () => {
  it('prints the general help with the exit codes on --help and exits 0', async () => {
    // Prepare
    const io = createTestIo();

    // Act
    const code = await runCli(['--help'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.stdoutText()).toContain('Usage: npx openweb-exports <command>');
    expect(io.stdoutText()).toMatch(
      /Exit codes:[\s\S]*3 +the export FAILED[\s\S]*6 +the API could not be reached/,
    );
    for (const command of ['start', 'status', 'watch', 'abort', 'list']) {
      expect(io.stdoutText()).toContain(`  ${command} `);
    }
  });

  it.each([
    ['start', '--last <duration>'],
    ['status', 'status <exportId> --spot <id>'],
    ['watch', '--interval-seconds <n>'],
    ['abort', 'abort <exportId> --spot <id>'],
    ['list', '--next-token <token>'],
    ['coverage', 'Exits 10 when the range has gaps'],
  ])(
    'prints the help of %s with its own options, pointing at the general help for the rest',
    async (command, expected) => {
      // Prepare
      const io = createTestIo({ fetch: failingFetch() });

      // Act
      const code = await runCli([command, '--help'], io);

      // Assess
      expect(code).toBe(ExitCode.SUCCESS);
      expect(io.stdoutText()).toContain(`Usage: npx openweb-exports ${command}`);
      expect(io.stdoutText()).toContain(expected);
      expect(io.stdoutText()).toContain(
        "Global options: [--api <url>] [--spot <id>] [--json] [--sigv4] [--region <region>]\nRun 'npx openweb-exports --help' for what they do and for every exit code.\n",
      );
      expect(io.stdoutText()).not.toContain('Exit codes:');
      expect(io.stdoutText()).not.toContain('Sign requests with AWS SigV4');
    },
  );

  it('answers `help <command>` like `<command> --help`', async () => {
    // Prepare
    const io = createTestIo();

    // Act
    const code = await runCli(['help', 'watch'], io);

    // Assess
    expect(code).toBe(ExitCode.SUCCESS);
    expect(io.stdoutText()).toContain('Usage: npx openweb-exports watch');
  });

  it.each([
    { argv: [], message: 'a command is missing' },
    { argv: ['exports'], message: 'unknown command exports\n' },
    { argv: ['stat', 'exp_1'], message: 'unknown command stat (did you mean status?)' },
    { argv: ['status', EXPORT_ID, '--spot', 'sp_demo', '--colour'], message: 'unknown option --colour\n' },
    {
      argv: ['start', '--spot', 'sp_demo', '--wiat'],
      message: 'unknown option --wiat (did you mean --wait?)',
    },
    { argv: ['list', '--spto=sp_demo'], message: 'unknown option --spto (did you mean --spot?)' },
    { argv: ['list', '-x'], message: 'unknown option -x' },
    { argv: ['status', '--spot', 'sp_demo'], message: 'the export id is missing' },
    { argv: ['status', EXPORT_ID, 'exp_2', '--spot', 'sp_demo'], message: "unexpected argument 'exp_2'" },
    { argv: ['status', EXPORT_ID], message: '--spot <id> is required' },
    { argv: ['status', EXPORT_ID, '--spot', 'demo'], message: "--spot 'demo' must look like sp_" },
    { argv: ['status', EXPORT_ID, '--spot'], message: "Option '--spot <value>' argument missing" },
    {
      argv: ['status', EXPORT_ID.toUpperCase(), '--spot', 'sp_demo'],
      message: `the export id '${EXPORT_ID.toUpperCase()}' must be lower case: ${EXPORT_ID}\n`,
    },
    {
      argv: ['abort', 'exp_1', '--spot', 'sp_demo'],
      message: "the export id 'exp_1' must look like ex_ and 26 lower-case letters and digits",
    },
    {
      argv: ['download', 'ex_1/../2', '--spot', 'sp_demo'],
      message: "the export id 'ex_1/../2' must look like",
    },
    { argv: ['start', '--spot', 'sp_demo'], message: 'give exactly one of --from <time> --until <time>' },
    {
      argv: ['start', '--spot', 'sp_demo', '--last', 'P1D', '--conversation', 'sp_demo_p1'],
      message: 'give exactly one of',
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--from', '2026-01-01T00:00:00Z'],
      message: '--from and --until go together',
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--from', '2026-01-01 00:00', '--until', '2026-01-02'],
      message: "--from '2026-01-01 00:00' must be a UTC time",
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--from', '2026-02-30T00:00:00Z', '--until', '2026-03-02'],
      message: "--from '2026-02-30T00:00:00Z' must be a UTC time",
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--from', '2026-01-02', '--until', '2026-01-01'],
      message: 'must be after --from',
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--last', 'P1M'],
      message: "--last 'P1M' must be an ISO 8601 duration",
    },
    { argv: ['start', '--spot', 'sp_demo', '--last', 'PT0S'], message: "--last 'PT0S'" },
    {
      argv: ['start', '--spot', 'sp_demo', '--last', 'P1D', '--delimiter', ':'],
      message: "--delimiter ':' must be one of",
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--last', 'P1D', '--max-records-in-file', '0'],
      message: "--max-records-in-file '0' must be a whole number from 1 to 100000",
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--last', 'P1D', '--interval-seconds', '5'],
      message: '--interval-seconds only applies with --wait',
    },
    {
      argv: ['watch', EXPORT_ID, '--spot', 'sp_demo', '--interval-seconds', '0.5'],
      message: "--interval-seconds '0.5' must be a number of seconds, at least 1",
    },
    {
      argv: ['list', '--spot', 'sp_demo', '--status', 'DONE'],
      message: "--status 'DONE' must be one of QUEUED, REQUESTED",
    },
    {
      argv: ['list', '--spot', 'sp_demo', '--limit', 'ten'],
      message: "--limit 'ten' must be a whole number",
    },
    {
      argv: ['list', '--spot', 'sp_demo', '--limit', '500'],
      message: "--limit '500' must be a whole number from 1 to 100",
    },
    {
      argv: ['list', '--spot', 'sp_demo', '--next-token', 'a token'],
      message: "--next-token 'a token' is not a token of this listing",
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--last', 'P1D', '--idempotency-key', 'daily run é'],
      message: '--idempotency-key must be 1 to 255 printable ASCII characters',
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--conversation', 'sp_other_p1'],
      message: "--conversation 'sp_other_p1' must be sp_demo_<postId>",
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--last', 'P31D'],
      message: "--last 'P31D': the range may span at most 730 hours",
    },
    {
      argv: ['start', '--spot', 'sp_demo', '--from', '2026-05-01', '--until', '2026-05-02'],
      message: '--until 2026-05-02T00:00:00Z must not be in the future (it is 2026-05-01T12:00:00Z here',
    },
    { argv: ['list', '--spot', 'sp_demo', '--api', 'localhost:3000'], message: 'must be http or https' },
    {
      argv: ['list', '--spot', 'sp_demo', '--api', 'not a url'],
      message: "the API URL 'not a url' is not a URL",
    },
    {
      argv: ['list', '--spot', 'sp_demo', '--api', 'https://api.example.test', '--sigv4'],
      message: '--sigv4 needs a region',
    },
  ])('exits 2 without calling the API for $argv', async ({ argv, message }) => {
    // Prepare
    const io = createTestIo({ fetch: failingFetch() });

    // Act
    const code = await runCli(argv, io);

    // Assess
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderrText()).toContain(message);
    expect(io.stderrText()).toMatch(
      /^error: .+\nUsage: npx openweb-exports .+\nRun 'npx openweb-exports( \w+)? --help' for details\.\n$/,
    );
  });

  it('names the commands in one line when the command is missing, rather than the whole help', async () => {
    // Prepare
    const io = createTestIo({ fetch: failingFetch() });

    // Act
    const code = await runCli([], io);

    // Assess
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderrText()).toBe(
      'error: a command is missing\n' +
        'Usage: npx openweb-exports <command> [options]   (commands: start, status, watch, abort, list, download, query, coverage, backfill, erase, fleet, report)\n' +
        "Run 'npx openweb-exports --help' for details.\n",
    );
  });

  it('spells an unexpected error `error:` as every other, then shows where it happened', async () => {
    // Prepare: a clock that fails, which no command expects.
    const io = createTestIo({
      fetch: failingFetch(),
      now: () => {
        throw new TypeError('the clock stopped');
      },
    });

    // Act
    const code = await runCli(['start', '--spot', 'sp_demo', '--last', 'P1D'], io);

    // Assess
    expect(code).toBe(1);
    expect(io.stderrText()).toMatch(/^error: the clock stopped \(an unexpected TypeError: a bug of the CLI/);
    expect(io.stderrText()).toMatch(/\n +at /);
    expect(io.stderrText()).not.toMatch(/^\w*Error:/m);
  });

  it('does not echo an API URL that carries a password', async () => {
    // Prepare
    const io = createTestIo({ fetch: failingFetch() });

    // Act
    const code = await runCli(
      ['list', '--spot', 'sp_demo', '--api', 'https://user:hunter2@api.example.test'],
      io,
    );

    // Assess
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderrText()).toContain('must not carry user info');
    expect(io.stderrText()).not.toContain('hunter2');
  });
});
