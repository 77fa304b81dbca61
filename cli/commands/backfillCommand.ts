import { BACKFILL_ID_PATTERN } from '../../lib/exports/backfill/BackfillRecord';
import type { BackfillView } from '../../lib/http/backfillViewSchema';
import { IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_CHARS } from '../../lib/http/readIdempotencyKey';
import { CLI_NAME } from '../../lib/settings/localRuntimeLayout';
import { backfillBody, backfillSpots, DEFAULT_WINDOW, UNTIL_NOW } from '../backfillRequest';
import type { CliCommand, CommandContext } from '../CliCommand';
import {
  booleanOption,
  intervalSecondsOption,
  reconnectAttemptsOption,
  requireSpotId,
  stringOption,
} from '../cliOptions';
import { ExitCode } from '../ExitCode';
import { CliUsageError } from '../errors';
import { offsetInstantNotes } from '../instantOption';
import { progressModeFor } from '../progressRenderer';
import {
  exitCodeForBackfills,
  formatBackfillGaps,
  formatBackfillPlan,
  formatBackfillStatus,
  watchBackfills,
} from '../watchBackfills';

const NAME = 'backfill';
const STATUS = 'status';
const ABORT = 'abort';
const LIST = 'list';
const START_ONLY_OPTIONS = ['from', 'until', 'window', 'spots-from', 'idempotency-key', 'refresh'] as const;

export const backfillCommand: CliCommand = {
  name: NAME,
  summary: "Export a range of a spot's history in windows, queued one after the other",
  synopsis: `${NAME} --spot <id> [--spot <id>…|--spots-from <file>] --from <time> [--until <time>] [--window <n>h] [--refresh] [--wait]
       ${CLI_NAME} ${NAME} ${STATUS} <backfillId> --spot <id> [--wait]
       ${CLI_NAME} ${NAME} ${ABORT} <backfillId> --spot <id>
       ${CLI_NAME} ${NAME} ${LIST} --spot <id>`,
  help: `Plans [--from, --until) into windows of at most --window, skipping every hour the coverage
ledger already holds (covered, in flight or retrying; a gap is exported again), and queues one
export per window behind the spot's scheduled runs: the upstream runs one export per spot at a
time, and the next window starts as soon as the previous one ends. Prints the plan, then exits 0;
with --wait, follows the backfill: on a terminal one line redrawn in place (windows done of all,
running, queued, rows archived, elapsed, ETA), otherwise a line per change, with --json one JSON
view per change. Several spots backfill side by side (--spot repeated, or --spots-from).
Ctrl-C stops watching (exit 130); the backfill keeps running.

  ${STATUS} <backfillId>   Where the backfill stands (each window with --json); --wait follows it
  ${LIST}                 The spot's backfills, newest first, each with where it stands
  ${ABORT} <backfillId>    Withdraws its unfinished windows: queued ones leave the queue (nothing
                      sent upstream), the running export is aborted; archived windows are kept

Exit codes once followed to the end: 0 every window archived, 3 some windows ended as gaps
(each is listed with its reason; backfill the range again to retry them), 4 aborted.

Options:
  --from <time>               Start of the range: 2024-01-01 (midnight UTC), 2024-01-01T00:00:00Z
                              or with an offset, 2024-01-01T02:00:00+02:00 (sent in UTC, and said)
  --until <time>|${UNTIL_NOW}        End of the range (exclusive); default ${UNTIL_NOW}: the start of the current hour
  --window <length>           Longest window one export covers: 1h to 730h, or days (7d); default ${DEFAULT_WINDOW}
  --spot <id>                 Repeat it to backfill several spots at once
  --spots-from <file>         Every spot a file configures: a cdk.json, or a spots file keyed by spot
                              id like the local runtime's LOCAL_SECRETS_FILE (local/demo-spots.json)
  --idempotency-key <key>     Repeat a backfill safely: the same key (and range) returns the same one
  --refresh                   Export the covered hours of the range again too: each covered window once,
                              a new version of it (the older one covers it until the new one is archived)
  --wait                      Follow the backfill(s) until every window is archived or a gap
  --interval-seconds <n>      With --wait, seconds between status checks (default 2, at least 1)
  --reconnect-attempts <n>    With --wait, failed checks in a row to retry (default 30)`,
  options: {
    // Repeatable here: several spots backfill at once.
    spot: { type: 'string', multiple: true },
    'spots-from': { type: 'string' },
    from: { type: 'string' },
    until: { type: 'string' },
    window: { type: 'string' },
    'idempotency-key': { type: 'string' },
    refresh: { type: 'boolean' },
    wait: { type: 'boolean' },
    'interval-seconds': { type: 'string' },
    'reconnect-attempts': { type: 'string' },
  },
  run: runBackfill,
};

async function runBackfill(context: CommandContext): Promise<ExitCode> {
  const [action, backfillId, ...extra] = context.positionals;
  if (action === undefined) return startBackfills(context);
  if (action === LIST) return listBackfills(context, backfillId);
  if (action !== STATUS && action !== ABORT) {
    throw new CliUsageError(
      `unexpected argument '${action}' (did you mean ${STATUS}, ${ABORT} or ${LIST}?)`,
      NAME,
    );
  }
  if (backfillId === undefined) throw new CliUsageError(`${action} needs the backfill id`, NAME);
  if (extra.length > 0) throw new CliUsageError(`unexpected argument '${extra[0]}'`, NAME);
  if (!BACKFILL_ID_PATTERN.test(backfillId)) {
    throw new CliUsageError(
      `the backfill id '${backfillId}' must look like bf_ and 26 lower-case letters and digits`,
      NAME,
    );
  }
  for (const option of START_ONLY_OPTIONS) {
    if (stringOption(context.values, option) !== undefined)
      throw new CliUsageError(`--${option} only applies when starting a backfill`, NAME);
  }
  const spotId = singleSpot(context);
  if (action === ABORT) {
    if (booleanOption(context.values, 'wait'))
      throw new CliUsageError('--wait does not apply to abort', NAME);
    // The API answers a repeated abort as it answered the first (and withdraws any window a first
    // try left behind): only the state before says whether this abort did anything.
    const before = await context.client().getBackfill(spotId, backfillId);
    const view = await context.client().abortBackfill(spotId, backfillId);
    if (!context.json) {
      const abortedAt = typeof before.abortedAt === 'string' ? ` (at ${before.abortedAt})` : '';
      context.io.stdout.write(
        before.status === 'ABORTED'
          ? `Backfill ${backfillId} was already ABORTED${abortedAt}; nothing more to abort.\n`
          : `Backfill ${backfillId} aborted: its unfinished windows are withdrawn.\n`,
      );
    }
    writeView(context, view);
    return ExitCode.SUCCESS;
  }
  const view = await context.client().getBackfill(spotId, backfillId);
  if (!booleanOption(context.values, 'wait')) {
    writeView(context, view);
    return ExitCode.SUCCESS;
  }
  return exitCodeForBackfills(await follow(context, [view]));
}

async function startBackfills(context: CommandContext): Promise<ExitCode> {
  const { io, values } = context;
  const spots = backfillSpots(context, NAME);
  const body = backfillBody(values, io.now(), NAME);
  for (const note of offsetInstantNotes(values, ['from', 'until'])) io.stderr.write(`${note}\n`);
  const idempotencyKey = stringOption(values, 'idempotency-key');
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    throw new CliUsageError(
      `--idempotency-key must be 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} printable ASCII characters`,
      NAME,
    );
  }
  const wait = booleanOption(values, 'wait');
  for (const option of ['interval-seconds', 'reconnect-attempts']) {
    if (!wait && stringOption(values, option) !== undefined)
      throw new CliUsageError(`--${option} only applies with --wait`, NAME);
  }
  const views: BackfillView[] = [];
  for (const spotId of spots) {
    const view = await context.client().startBackfill(spotId, body, idempotencyKey);
    views.push(view);
    io.stdout.write(context.json ? `${JSON.stringify(view)}\n` : formatBackfillPlan(view));
  }
  if (!wait) {
    if (!context.json) {
      for (const view of views)
        io.stdout.write(
          `Follow it with: ${context.followUp(`backfill ${STATUS} ${view.backfillId} --spot ${view.spotId} --wait`)}\n`,
        );
    }
    return ExitCode.SUCCESS;
  }
  return exitCodeForBackfills(await follow(context, views));
}

function follow(context: CommandContext, views: readonly BackfillView[]): Promise<BackfillView[]> {
  return watchBackfills({
    client: context.client(),
    backfills: views,
    intervalSeconds: intervalSecondsOption(context.values, NAME),
    reconnectAttempts: reconnectAttemptsOption(context.values, NAME),
    io: context.io,
    mode: progressModeFor({ json: context.json, isTTY: context.io.isTTY }),
    followUp: context.followUp,
  });
}

/** Every backfill of one spot, newest first: a lost backfill id is found again here. */
async function listBackfills(context: CommandContext, extra: string | undefined): Promise<ExitCode> {
  if (extra !== undefined) throw new CliUsageError(`unexpected argument '${extra}'`, NAME);
  const spotId = singleSpot(context);
  const client = context.client();
  const views: BackfillView[] = [];
  let nextToken: string | undefined;
  do {
    const page = await client.listBackfills(spotId, nextToken === undefined ? {} : { nextToken });
    views.push(...page.items);
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  if (context.json) {
    context.io.stdout.write(`${JSON.stringify({ items: views })}\n`);
    return ExitCode.SUCCESS;
  }
  context.io.stdout.write(
    views.length === 0
      ? `No backfills for spot ${spotId}.\n`
      : `${views.map((view) => `${view.backfillId}  ${view.from} – ${view.until}  ${formatBackfillStatus(view)}`).join('\n')}\n`,
  );
  return ExitCode.SUCCESS;
}

/** `status` and `abort` act on one backfill of one spot. */
function singleSpot(context: CommandContext): string {
  const given = context.values.spot;
  if (Array.isArray(given) && given.length > 1)
    throw new CliUsageError('a backfill belongs to one spot: give --spot once', NAME);
  const spot = Array.isArray(given) ? given[0] : given;
  return requireSpotId(
    { ...context, values: { ...context.values, spot: typeof spot === 'string' ? spot : undefined } },
    NAME,
  );
}

function writeView(context: CommandContext, view: BackfillView): void {
  context.io.stdout.write(
    context.json ? `${JSON.stringify(view)}\n` : `${formatBackfillStatus(view)}\n${formatBackfillGaps(view)}`,
  );
}
