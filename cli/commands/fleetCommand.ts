import type { CliCommand, CommandContext } from '../CliCommand';
import { booleanOption, intervalSecondsOption, rejectPositionals } from '../cliOptions';
import { ExitCode } from '../ExitCode';
import type { SpotStatusView } from '../FleetView';
import { formatFleet } from '../formatFleet';

const NAME = 'fleet';
const MS_PER_SECOND = 1000;
/** `--watch` redraws this often unless told otherwise. */
export const DEFAULT_FLEET_WATCH_SECONDS = 30;
const CLEAR_SCREEN = '\x1b[H\x1b[2J';

export const fleetCommand: CliCommand = {
  name: NAME,
  summary: 'Show every spot at a glance, worst first: is everything fine?',
  synopsis: 'fleet [--watch [--interval-seconds <n>]]',
  help: `One line per spot the deployment knows (configured, or with an export running or queued),
worst first: STALE (behind its freshness target: data stopped arriving), then GAPS (windows
given up on in the last 30 days), then OK; each with how far behind it is against its target,
the export holding it, its queue, its open backfills, its gaps with the newest reason and its
last failure. Colour on a terminal only (never with NO_COLOR). With --json, the API's items.
Exits ${ExitCode.FLEET_STALE} when a spot is stale, ${ExitCode.COVERAGE_GAPS} when a spot has gaps (and none is stale), 0 when all is fine.

Options:
  --watch                    Redraw every --interval-seconds until Ctrl-C (exit: the last view's)
  --interval-seconds <n>     Seconds between redraws with --watch (default ${DEFAULT_FLEET_WATCH_SECONDS})`,
  options: {
    watch: { type: 'boolean' },
    'interval-seconds': { type: 'string' },
  },
  run: runFleet,
};

async function runFleet(context: CommandContext): Promise<ExitCode> {
  const { io, values } = context;
  rejectPositionals(context, NAME);
  const watch = booleanOption(values, 'watch');
  const intervalSeconds =
    values['interval-seconds'] === undefined
      ? DEFAULT_FLEET_WATCH_SECONDS
      : intervalSecondsOption(values, NAME);
  const client = context.client();
  const colour = io.isTTY && (io.env.NO_COLOR ?? '') === '';
  let exitCode: ExitCode = ExitCode.SUCCESS;
  for (;;) {
    const spots = await client.listAllSpots();
    exitCode = fleetExitCode(spots);
    if (context.json) io.stdout.write(`${JSON.stringify({ items: spots }, null, watch ? 0 : 2)}\n`);
    else
      io.stdout.write(
        `${watch && io.isTTY ? CLEAR_SCREEN : ''}${formatFleet(spots, { colour, nowMs: io.now() })}`,
      );
    if (!watch) return exitCode;
    try {
      await io.sleep(intervalSeconds * MS_PER_SECOND, io.signal);
    } catch (error) {
      if (io.signal?.aborted) return exitCode;
      throw error;
    }
    if (io.signal?.aborted) return exitCode;
  }
}

/** Stale wins over gaps: data that stopped arriving is the worse news. */
export function fleetExitCode(spots: readonly SpotStatusView[]): ExitCode {
  if (spots.some((spot) => spot.stale)) return ExitCode.FLEET_STALE;
  if (spots.some((spot) => spot.gaps.count > 0)) return ExitCode.COVERAGE_GAPS;
  return ExitCode.SUCCESS;
}
