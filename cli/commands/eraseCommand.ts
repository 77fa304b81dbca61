import { ERASURE_ID_PATTERN, USER_ID_PATTERN } from '../../lib/exports/erasure/ErasureRecord';
import type { ErasureView } from '../../lib/http/erasureViewSchema';
import { CLI_NAME } from '../../lib/settings/localRuntimeLayout';
import type { CliCommand, CommandContext } from '../CliCommand';
import { booleanOption, intervalSecondsOption, requireSpotId, stringOption } from '../cliOptions';
import { ExitCode } from '../ExitCode';
import { CliUsageError } from '../errors';

const NAME = 'erase';
const STATUS = 'status';
const MS_PER_SECOND = 1000;

export const eraseCommand: CliCommand = {
  name: NAME,
  summary: "Erase a user's rows from every archived file of a spot, and keep them out",
  synopsis: `${NAME} --spot <id> --user <userId> [--wait]
       ${CLI_NAME} ${NAME} ${STATUS} <erasureId> --spot <id> [--wait]`,
  help: `Asks for the user to be erased from the spot's archive: the user joins the spot's suppression
list at once (every export archived from then on is stored without their rows), and the erasure
rewrites every archived file holding their rows, deletes the old versions, and checks at the end
that no file and no table row holds the user. Prints the erasure, then exits 0; with --wait,
follows it to its end: a line per change, with --json one JSON view per change. The same user
asked for again is the same erasure (a FAILED one is taken up again).

  ${STATUS} <erasureId>    Where the erasure stands, the files it rewrote, its verification

Exit codes once followed to the end: 0 COMPLETED, 13 FAILED (its reason on stderr).

Options:
  --user <userId>             The upstream's id of the user to erase
  --wait                      Follow the erasure until it is COMPLETED or FAILED
  --interval-seconds <n>      With --wait, seconds between status checks (default 2, at least 1)`,
  options: {
    user: { type: 'string' },
    wait: { type: 'boolean' },
    'interval-seconds': { type: 'string' },
  },
  run: runErase,
};

async function runErase(context: CommandContext): Promise<ExitCode> {
  const [action, erasureId, ...extra] = context.positionals;
  const spotId = requireSpotId(context, NAME);
  const intervalSeconds = intervalSecondsOption(context.values, NAME);
  if (action === undefined) {
    const userId = stringOption(context.values, 'user');
    if (userId === undefined) throw new CliUsageError('--user <userId> is required', NAME);
    if (!USER_ID_PATTERN.test(userId))
      throw new CliUsageError(`the user id must be 1 to 128 letters, digits or _ . : @ + - characters`, NAME);
    const view = await context.client().requestErasure(spotId, userId);
    return finish(context, view, intervalSeconds);
  }
  if (action !== STATUS)
    throw new CliUsageError(`unexpected argument '${action}' (did you mean ${STATUS}?)`, NAME);
  if (erasureId === undefined) throw new CliUsageError(`${STATUS} needs the erasure id`, NAME);
  if (extra.length > 0) throw new CliUsageError(`unexpected argument '${extra[0]}'`, NAME);
  if (stringOption(context.values, 'user') !== undefined)
    throw new CliUsageError('--user only applies when asking for an erasure', NAME);
  if (!ERASURE_ID_PATTERN.test(erasureId))
    throw new CliUsageError(`the erasure id '${erasureId}' must look like er_ and 24 hex digits`, NAME);
  return finish(context, await context.client().getErasure(spotId, erasureId), intervalSeconds);
}

/** Prints the erasure; with --wait follows it to its end and answers its exit code. */
async function finish(
  context: CommandContext,
  first: ErasureView,
  intervalSeconds: number,
): Promise<ExitCode> {
  let view = first;
  writeView(context, view);
  if (!booleanOption(context.values, 'wait')) return ExitCode.SUCCESS;
  while (view.status === 'RUNNING') {
    await context.io.sleep(intervalSeconds * MS_PER_SECOND);
    const next = await context.client().getErasure(view.spotId, view.erasureId);
    if (next.updatedAt !== view.updatedAt || next.status !== view.status) writeView(context, next);
    view = next;
  }
  if (view.status === 'FAILED') {
    context.io.stderr.write(`Erasure ${view.erasureId} FAILED: ${view.reason ?? 'no reason given'}\n`);
    return ExitCode.ERASURE_FAILED;
  }
  return ExitCode.SUCCESS;
}

function writeView(context: CommandContext, view: ErasureView): void {
  context.io.stdout.write(context.json ? `${JSON.stringify(view)}\n` : `${formatErasure(view)}\n`);
}

/** One erasure in words: where it stands, what it removed, and what the check at the end found. */
export function formatErasure(view: ErasureView): string {
  const lines = [
    `Erasure ${view.erasureId} of user ${view.userId} on ${view.spotId}: ${view.status}` +
      (view.completedAt !== undefined ? ` at ${view.completedAt}` : '') +
      (view.reason !== undefined ? ` (${view.reason})` : ''),
    `  ${view.exportsDone} export(s) swept, ${view.filesRead} file(s) read, ${view.filesRewritten} rewritten, ${view.rowsRemoved} row(s) removed`,
  ];
  for (const file of view.files) lines.push(`  ${file.key}: ${file.rowsRemoved} removed, ${file.rows} left`);
  for (const check of view.verification?.checks ?? []) lines.push(`  checked: ${check}`);
  return lines.join('\n');
}
