// Polling cost of the deployed workflow definition against a naive fixed-interval loop, in
// simulated time: `npm run bench:polling`. Prints one table; docs/performance.md keeps a copy.
import '../../local/promiseWithResolvers';
import FakeTimers from '@sinonjs/fake-timers';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { stateMachineDefinitionFromTemplate } from '../../infra/extractStateMachine';
import { synthesizeStackTemplate } from '../../infra/synthesizeStackTemplate';
import { expectedEndWindow } from '../../lib/exports/lifecycle/expectedExportDuration';
import { isFinishing } from '../../lib/exports/lifecycle/pollExportForWorkflow';
import type { ExpectedEnd } from '../../lib/exports/record/ExportRecord';
import { ExportFinishingError, ExportStillProcessingError } from '../../lib/exports/workflow/errors';
import { AWS_PRICE_TABLE, SETTINGS } from '../../lib/settings/settingsTable';
import { createSeededRandom } from '../../local/openweb-simulator/seededRandom';
import { exportRecordFixture } from '../support/exportRecordFixtures';
import { COST_TABLE_HEADER, costRow } from './exportCostTable';

const EXPORT_DURATIONS_SECONDS = [60, 600, 3_600, 21_600];
const RUNS_PER_CASE = 41;
const NAIVE_INTERVAL_SECONDS = 30;
const DEFAULT_FIRST_POLL_DELAY_SECONDS = SETTINGS.defaultFirstPollDelaySeconds.default;
const FAR_DEADLINE = '2100-01-01T00:00:00Z';
/** Real exports of one spot vary: each run lasts the nominal duration ± this fraction. */
const DURATION_SPREAD = 0.1;
const BENCH_DEADLINE_SECONDS = 24 * 60 * 60;
/** Completed exports a spot's history holds when its expected end is learned. */
const HISTORY_EXPORTS = 5;
/** How far a poll that saw an export running is, in a learned history, from the end it brackets. */
const HISTORY_BRACKET_SECONDS = 2.5;

/** The job-poller pattern: Wait 30 s → Task → Choice, forever. */
const NAIVE_DEFINITION = {
  StartAt: 'Wait',
  States: {
    Wait: { Type: 'Wait', Seconds: NAIVE_INTERVAL_SECONDS, Next: 'Poll' },
    Poll: { Type: 'Task', Resource: 'arn:aws:lambda:us-east-1:123456789012:function:poll', Next: 'Done?' },
    'Done?': {
      Type: 'Choice',
      Choices: [{ Variable: '$.done', BooleanEquals: true, Next: 'Finished' }],
      Default: 'Wait',
    },
    Finished: { Type: 'Succeed' },
  },
} as unknown as StateMachineDefinition;

interface RunResult {
  polls: number;
  transitions: number;
  lagSeconds: number;
}

/** The deployed definition's create task, which the naive loop does not have. */
let createState: string | undefined;
/** The archive task that follows a completed export in the deployed workflow. */
let archiveState: string | undefined;

/** One export's length: the nominal duration ± the spread, from its own seeded stream. */
function actualSecondsOf(durationSeconds: number, seed: number): number {
  return durationSeconds * (1 - DURATION_SPREAD + 2 * DURATION_SPREAD * createSeededRandom(seed * 7919)());
}

/**
 * The expected end the create task records for an export whose spot finished HISTORY_EXPORTS
 * exports of the same length before (other seeds of the same spread), each seen running a few
 * seconds before its end and done a few seconds after.
 */
function learnedExpectedEnd(durationSeconds: number, seed: number): Required<ExpectedEnd> {
  const request = { kind: 'dateRange' as const, from: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00:00Z' };
  const at = (seconds: number) => new Date(seconds * 1000).toISOString();
  const history = Array.from({ length: HISTORY_EXPORTS }, (_, index) => {
    const actual = actualSecondsOf(durationSeconds, seed * 31 + index + 1);
    return exportRecordFixture({
      request,
      startedAt: at(0),
      processingSeenAt: at(actual - HISTORY_BRACKET_SECONDS),
      completedAt: at(actual + HISTORY_BRACKET_SECONDS),
    });
  });
  const window = expectedEndWindow(history, request);
  if (window === undefined) throw new Error('a history gives a window');
  return {
    from: at(window.fromSeconds),
    until: at(window.untilSeconds),
    typical: at(window.typicalSeconds),
  };
}

async function runOnce(
  definition: StateMachineDefinition,
  pollState: string,
  style: 'retry' | 'choice',
  durationSeconds: number,
  firstPollDelaySeconds: number | 'learned',
  seed: number,
  someoneWaits: boolean,
): Promise<RunResult> {
  // The export's own length comes from its own stream, so every loop sees the same one for a seed.
  const actualSeconds = actualSecondsOf(durationSeconds, seed);
  const expectedEnd =
    firstPollDelaySeconds === 'learned' ? learnedExpectedEnd(durationSeconds, seed) : undefined;
  // The create task waits until the expected end begins when someone waits for the export, else
  // until most of the spot's exports had ended (whole seconds), as the deployed one does.
  const firstWaitSeconds =
    expectedEnd === undefined
      ? (firstPollDelaySeconds as number)
      : Math.floor(Date.parse(someoneWaits ? expectedEnd.from : expectedEnd.typical) / 1000);
  const started = exportRecordFixture({
    startedAt: new Date(0).toISOString(),
    ...(expectedEnd !== undefined && { expectedEnd }),
  });
  const clock = FakeTimers.install({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const realRandom = Math.random;
  Math.random = createSeededRandom(seed);
  try {
    let polls = 0;
    let detectedAtMs = Number.NaN;
    const poll = (): Record<string, string | number | boolean> => {
      polls += 1;
      const done = Date.now() >= actualSeconds * 1000;
      if (done) detectedAtMs = Date.now();
      if (style === 'choice') return { done };
      // As pollExportForWorkflow decides: close polls only while someone waits.
      if (!done && someoneWaits && isFinishing(started, Date.now()))
        throw new ExportFinishingError('ex_bench');
      if (!done) throw new ExportStillProcessingError('ex_bench');
      return { spotId: 'sp_bench', exportId: 'ex_bench', status: 'COMPLETED', fileCount: 1 };
    };
    const execution = new StateMachine(definition, { validationOptions: { checkArn: false } }).run(
      {
        spotId: 'sp_bench',
        exportId: 'ex_bench',
        firstPollDelaySeconds: firstWaitSeconds,
        deadline: FAR_DEADLINE,
        done: false,
      },
      {
        overrides: {
          taskResourceLocalHandlers: {
            [pollState]: poll,
            // The deployed workflow archives a completed export's files: one task, here at once.
            ...(archiveState !== undefined && {
              [archiveState]: () => ({
                spotId: 'sp_bench',
                exportId: 'ex_bench',
                archiveStatus: 'ARCHIVED',
                fileCount: 1,
              }),
            }),
            // The deployed workflow creates the export first; here the upstream accepts at once.
            ...(createState !== undefined && {
              [createState]: () => ({
                spotId: 'sp_bench',
                exportId: 'ex_bench',
                deadline: FAR_DEADLINE,
                firstPollDelaySeconds: firstWaitSeconds,
              }),
            }),
          },
        },
      },
    );
    let transitions = 0;
    const counting = (async () => {
      for await (const event of execution.eventLogs) {
        // Step Functions bills each state entered and each retry of a state.
        if (event.type === 'StateEntered' || event.type === 'StateRetried') transitions += 1;
      }
    })();
    let settled = false;
    const result = execution.result.finally(() => {
      settled = true;
    });
    while (!settled) await clock.nextAsync();
    await result;
    await counting;
    return { polls, transitions, lagSeconds: (detectedAtMs - actualSeconds * 1000) / 1000 };
  } finally {
    Math.random = realRandom;
    clock.uninstall();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function formatDuration(seconds: number): string {
  return seconds >= 3600 ? `${seconds / 3600} h` : `${seconds / 60} min`;
}

async function main(): Promise<void> {
  // The deployed defaults, except a deadline beyond the longest export measured here.
  const { definition } = stateMachineDefinitionFromTemplate(
    synthesizeStackTemplate({ polling: { exportDeadlineSeconds: BENCH_DEADLINE_SECONDS } }),
  );
  const deployed = definition as unknown as StateMachineDefinition;
  const taskOf = (action: string) =>
    Object.entries(definition.States).find(
      ([, state]) => (state as { Parameters?: { action?: string } }).Parameters?.action === action,
    )?.[0] as string;
  const pollState = taskOf('poll');
  createState = taskOf('create');
  archiveState = taskOf('archive');
  const rows: string[][] = [];
  const costRows: string[][] = [];
  for (const durationSeconds of EXPORT_DURATIONS_SECONDS) {
    const cases = [
      {
        name: 'backoff, no history',
        def: deployed,
        state: pollState,
        style: 'retry' as const,
        first: DEFAULT_FIRST_POLL_DELAY_SECONDS,
        waits: false,
      },
      // With history the create task records the export's expected end, learned from the spot's
      // recent exports of the same length. With nothing queued behind the export the first poll
      // comes when most of them had ended, then backs off; with a successor queued (or an urgent
      // start) it comes as the expected end begins, and polls come within seconds inside it.
      {
        name: 'stable history, nothing waiting',
        def: deployed,
        state: pollState,
        style: 'retry' as const,
        first: 'learned' as const,
        waits: false,
      },
      {
        name: 'stable history, a successor queued',
        def: deployed,
        state: pollState,
        style: 'retry' as const,
        first: 'learned' as const,
        waits: true,
      },
      {
        name: `naive ${NAIVE_INTERVAL_SECONDS} s loop`,
        def: NAIVE_DEFINITION,
        state: 'Poll',
        style: 'choice' as const,
        first: 0,
        waits: false,
      },
    ];
    const results: Record<string, RunResult[]> = Object.fromEntries(cases.map((c) => [c.name, []]));
    for (let run = 0; run < RUNS_PER_CASE; run++) {
      // Side by side: each seed runs every case before the next seed.
      for (const c of cases) {
        results[c.name]?.push(
          await runOnce(c.def, c.state, c.style, durationSeconds, c.first, 1000 + run, c.waits),
        );
      }
    }
    for (const c of cases) {
      const runs = results[c.name] as RunResult[];
      const polls = median(runs.map((r) => r.polls));
      const transitions = median(runs.map((r) => r.transitions));
      const lag = median(runs.map((r) => r.lagSeconds));
      rows.push([
        formatDuration(durationSeconds),
        c.name,
        String(polls),
        String(transitions),
        `${lag.toFixed(1)} s`,
        `${((100 * lag) / durationSeconds).toFixed(1)} %`,
        String(Math.max(...runs.map((r) => r.transitions - r.polls))),
      ]);
      if (c.style === 'retry')
        costRows.push(
          costRow({ exportLasts: formatDuration(durationSeconds), loop: c.name, polls, transitions }),
        );
    }
  }
  const header = [
    'export lasts',
    'loop',
    'polls (median)',
    'transitions (median)',
    'detection lag (median)',
    'lag / duration',
    'max transitions − polls',
  ];
  console.log(
    `Polling cost, ${RUNS_PER_CASE} seeded runs per row, simulated time; each export lasts its nominal duration ± ${DURATION_SPREAD * 100} %`,
  );
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log('');
  console.log(
    `What one export costs (docs/deploying.md), from the medians above and lib/exports/cost at the settings' price table (${AWS_PRICE_TABLE.region}, ${AWS_PRICE_TABLE.asOf}):`,
  );
  const costHeader = COST_TABLE_HEADER;
  console.log(`| ${costHeader.join(' | ')} |`);
  console.log(`| ${costHeader.map(() => '---').join(' | ')} |`);
  for (const row of costRows) console.log(`| ${row.join(' | ')} |`);
}

await main();
