import type { ParseArgsConfig } from 'node:util';
import type { CliIo } from './CliIo';
import type { ExitCode } from './ExitCode';
import type { ExportsApiClient } from './ExportsApiClient';

/** Builds a command line to run next from its words (`watch ex_… --spot sp_…`). */
export type FollowUpCommand = (words: string) => string;

export type CliOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Option values as `parseArgs` returns them. */
export type CliOptionValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

export interface CommandContext {
  io: CliIo;
  values: CliOptionValues;
  positionals: readonly string[];
  /** `--json`: machine output on stdout. */
  json: boolean;
  /** A command line to print for the operator to run next, keeping `--api` and the like. */
  followUp: FollowUpCommand;
  /** The API client, built on first use so usage errors surface before any setting is resolved. */
  client(): ExportsApiClient;
}

/** One subcommand: its options, its help and what it does. */
export interface CliCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The synopsis line(s) after `Usage: openweb-exports `. */
  synopsis: string;
  /** The command's own options and notes, shown by `<command> --help`. */
  help: string;
  options: CliOptionsConfig;
  run(context: CommandContext): Promise<ExitCode>;
}
