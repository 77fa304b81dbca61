import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from '../../lib/exports/lifecycle/listExports';
import { ExportStatus, isExportStatus } from '../../lib/exports/record/ExportStatus';
import type { ExportView } from '../../lib/http/exportViewSchema';
import { MAX_NEXT_TOKEN_CHARS, NEXT_TOKEN_PATTERN } from '../../lib/http/readListQuery';
import type { CliCommand, CommandContext } from '../CliCommand';
import { booleanOption, integerOption, rejectPositionals, requireSpotId, stringOption } from '../cliOptions';
import { ExitCode } from '../ExitCode';
import { CliUsageError } from '../errors';
import { formatExportTable, formatUsd } from '../formatExportView';

const NAME = 'list';
// Bounds --all should the API ever hand back a token that never ends.
export const LIST_ALL_MAX_PAGES = 1000;

export const listCommand: CliCommand = {
  name: NAME,
  summary: "List a spot's exports, newest first",
  synopsis: 'list --spot <id> [--status <status>] [--limit <n>] [--all | --next-token <token>]',
  help: `Options:
  --status <status>      Only exports in this state: ${Object.values(ExportStatus).join(', ')}
  --limit <n>            Exports per page, 1 to ${MAX_LIST_LIMIT} (default ${DEFAULT_LIST_LIMIT})
  --all                  Follow every page and print them as one list
  --next-token <token>   Continue a previous listing from its next page`,
  options: {
    status: { type: 'string' },
    limit: { type: 'string' },
    all: { type: 'boolean' },
    'next-token': { type: 'string' },
  },
  run: runList,
};

async function runList(context: CommandContext): Promise<ExitCode> {
  const { io, values } = context;
  rejectPositionals(context, NAME);
  const spotId = requireSpotId(context, NAME);
  const status = statusOption(stringOption(values, 'status'));
  const limit = integerOption(values, 'limit', NAME, { min: 1, max: MAX_LIST_LIMIT });
  const nextTokenOption = stringOption(values, 'next-token');
  if (
    nextTokenOption !== undefined &&
    (nextTokenOption.length > MAX_NEXT_TOKEN_CHARS || !NEXT_TOKEN_PATTERN.test(nextTokenOption))
  ) {
    throw new CliUsageError(
      `--next-token '${nextTokenOption}' is not a token of this listing (copy it from the last page)`,
      NAME,
    );
  }
  const all = booleanOption(values, 'all');

  const client = context.client();
  const items: ExportView[] = [];
  let nextToken = nextTokenOption;
  let pages = 0;
  do {
    const page = await client.listExports(spotId, { status, limit, nextToken });
    items.push(...page.items);
    nextToken = page.nextToken;
    pages += 1;
  } while (all && nextToken !== undefined && pages < LIST_ALL_MAX_PAGES);

  // A mistyped spot looks like one with no exports: ask whether it is known at all.
  if (items.length === 0 && status === undefined && nextTokenOption === undefined)
    await client.requireKnownSpot(spotId);

  if (context.json) {
    io.stdout.write(
      `${JSON.stringify(nextToken === undefined ? { items } : { items, nextToken }, null, 2)}\n`,
    );
    return ExitCode.SUCCESS;
  }
  io.stdout.write(items.length === 0 ? `No exports for spot ${spotId}.\n` : formatExportTable(items));
  const total = describeTotal(items);
  if (total !== undefined) io.stdout.write(total);
  if (nextToken !== undefined) {
    io.stderr.write(
      `More exports: ${context.followUp(`list --spot ${spotId} --next-token ${nextToken}`)} (or --all)\n`,
    );
  }
  return ExitCode.SUCCESS;
}

function statusOption(text: string | undefined): ExportStatus | undefined {
  if (text === undefined) return undefined;
  const status = text.toUpperCase();
  if (!isExportStatus(status)) {
    throw new CliUsageError(
      `--status '${text}' must be one of ${Object.values(ExportStatus).join(', ')}`,
      NAME,
    );
  }
  return status;
}

/**
 * The listed exports' estimated cost together, and the period they were requested in: with
 * `--all`, the spot's whole history (or, with `--status`, that of its exports in that state).
 */
export function describeTotal(items: readonly ExportView[]): string | undefined {
  if (items.length === 0) return undefined;
  const usd = items.reduce((sum, item) => sum + item.cost.totalUsd, 0);
  const requested = items.map((item) => item.requestedAt).sort();
  const period = ` requested ${requested[0]} to ${requested[requested.length - 1]}`;
  return `Total: ${formatUsd(usd)} est. for ${items.length} export${items.length === 1 ? '' : 's'}${period}\n`;
}
