import type { CliCommand } from '../CliCommand';
import { abortCommand } from './abortCommand';
import { backfillCommand } from './backfillCommand';
import { coverageCommand } from './coverageCommand';
import { downloadCommand } from './downloadCommand';
import { eraseCommand } from './eraseCommand';
import { fleetCommand } from './fleetCommand';
import { listCommand } from './listCommand';
import { queryCommand } from './queryCommand';
import { reportCommand } from './reportCommand';
import { startCommand } from './startCommand';
import { statusCommand } from './statusCommand';
import { watchCommand } from './watchCommand';

/** The CLI's commands, in the order `--help` lists them. */
export const COMMANDS: readonly CliCommand[] = [
  startCommand,
  statusCommand,
  watchCommand,
  abortCommand,
  listCommand,
  downloadCommand,
  queryCommand,
  coverageCommand,
  backfillCommand,
  eraseCommand,
  fleetCommand,
  reportCommand,
];
