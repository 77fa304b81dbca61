import {
  DEFAULT_COVERAGE_RANGE_DAYS,
  MAX_COVERAGE_PAGE_WINDOWS,
  MAX_COVERAGE_RANGE_DAYS,
  MAX_COVERAGE_RANGE_MS,
} from '../../lib/exports/coverage/spotCoverage';
import type { SpotCoverage } from '../../lib/exports/coverage/spotCoverageSchema';
import { wholeSecondInstant } from '../../lib/exports/time/intervals';
import type { CliCommand, CommandContext } from '../CliCommand';
import { rejectPositionals, requireSpotId, stringOption } from '../cliOptions';
import { ExitCode } from '../ExitCode';
import { CliUsageError } from '../errors';
import { CoverageCell, formatCoverage } from '../formatCoverage';
import { instantOption, offsetInstantNotes } from '../instantOption';
import { mergeCoveragePages } from '../mergeCoveragePages';

const NAME = 'coverage';
/** Bounds the pages followed (each up to 1,000 windows) should the API never stop handing out tokens. */
export const COVERAGE_MAX_PAGES = 100;

export const coverageCommand: CliCommand = {
  name: NAME,
  summary: 'Show which hours of a spot are covered, in flight, given up on (gaps) or not planned',
  synopsis: 'coverage --spot <id> [--from <time>] [--until <time>]',
  help: `Prints a timeline of the range, a line per UTC day and a cell per hour:
  ${CoverageCell.COVERED} covered (archived)  ${CoverageCell.IN_FLIGHT} in flight or retrying  ${CoverageCell.GAP} gap (given up on)  ${CoverageCell.NOT_PLANNED} not planned
then the hours in each state, the gaps with their reasons and the command that fills each, the
windows in flight and each schedule's watermark. With --json, the API's answer (every page in
one document). Exits ${ExitCode.COVERAGE_GAPS} when the range has gaps, 0 otherwise.

Options:
  --from <time>    Start of the range: 2026-01-31T00:00:00Z, 2026-01-31, or with an offset,
                   2026-01-31T02:00:00+02:00 (default: the start of the spot's earliest
                   window, at most ${DEFAULT_COVERAGE_RANGE_DAYS} days before --until)
  --until <time>   End of the range (exclusive), same format (default: now); at most
                   ${MAX_COVERAGE_RANGE_DAYS} days after --from`,
  options: {
    from: { type: 'string' },
    until: { type: 'string' },
  },
  run: runCoverage,
};

async function runCoverage(context: CommandContext): Promise<ExitCode> {
  const { io, values } = context;
  rejectPositionals(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const range = rangeOptions(stringOption(values, 'from'), stringOption(values, 'until'), io.now());
  for (const note of offsetInstantNotes(values, ['from', 'until'])) io.stderr.write(`${note}\n`);

  const client = context.client();
  const pages: SpotCoverage[] = [];
  let nextToken: string | undefined;
  do {
    const page = await client.getCoverage(spotId, {
      ...range,
      limit: MAX_COVERAGE_PAGE_WINDOWS,
      ...(nextToken !== undefined && { nextToken }),
    });
    pages.push(page);
    nextToken = page.nextToken;
  } while (nextToken !== undefined && pages.length < COVERAGE_MAX_PAGES);
  const coverage = mergeCoveragePages(pages);
  const nothingThere =
    coverage.covered.length + coverage.gaps.length + coverage.inFlight.length + coverage.watermarks.length ===
    0;
  // A mistyped spot looks like one where nothing was planned: ask whether it is known at all.
  if (nothingThere) await client.requireKnownSpot(spotId);

  io.stdout.write(
    context.json ? `${JSON.stringify(coverage, null, 2)}\n` : formatCoverage(coverage, context.followUp),
  );
  if (coverage.nextToken !== undefined) {
    io.stderr.write(
      `Shown up to ${coverage.page.until} only (${COVERAGE_MAX_PAGES} pages of windows): ask for a shorter range with --from and --until.\n`,
    );
  }
  return coverage.summary.gapHours > 0 ? ExitCode.COVERAGE_GAPS : ExitCode.SUCCESS;
}

/** `--from` and `--until` as the API takes them, checked with its rules before anything is sent. */
function rangeOptions(
  fromText: string | undefined,
  untilText: string | undefined,
  nowMs: number,
): { from?: string; until?: string } {
  const from = fromText === undefined ? undefined : instantOption('from', fromText, NAME);
  const until = untilText === undefined ? undefined : instantOption('until', untilText, NAME);
  if (from === undefined) return until === undefined ? {} : { until };
  const untilMs = until === undefined ? nowMs : Date.parse(until);
  const untilName = until === undefined ? `now (${wholeSecondInstant(nowMs)})` : `--until ${until}`;
  if (Date.parse(from) >= untilMs)
    throw new CliUsageError(`--from ${from} must be before ${untilName}`, NAME);
  if (untilMs - Date.parse(from) > MAX_COVERAGE_RANGE_MS)
    throw new CliUsageError(
      `--from ${from} is more than ${MAX_COVERAGE_RANGE_DAYS} days before ${untilName}: the range may span at most ${MAX_COVERAGE_RANGE_DAYS} days`,
      NAME,
    );
  return until === undefined ? { from } : { from, until };
}
