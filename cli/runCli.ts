import { parseArgs } from 'node:util';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { suggestName } from '../lib/text/suggestName';
import { type ApiEndpoint, resolveApiEndpoint } from './ApiEndpoint';
import type { CliCommand, CliOptionsConfig, CliOptionValues, CommandContext } from './CliCommand';
import type { CliIo } from './CliIo';
import { booleanOption, followUpCommandFor, GLOBAL_OPTIONS, spotOptions, stringOption } from './cliOptions';
import { COMMANDS } from './commands/index';
import { ExitCode } from './ExitCode';
import { ExportsApiClient } from './ExportsApiClient';
import { CliUsageError } from './errors';
import { type ErrorReportContext, reportError } from './reportError';
import { createSigV4RequestSigner } from './sigV4RequestSigner';
import { commandUsage, generalUsage } from './usage';

const HELP_COMMAND = 'help';

/** A command line split into the command and everything else. */
interface CommandLine {
  commandName: string | undefined;
  rest: string[];
}

/**
 * Runs one invocation of `openweb-exports` and returns its exit code. Every effect goes through
 * `io`, so tests run it against a fake API, a fake terminal and a fake clock.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const reportContext: ErrorReportContext = { json: false, signed: false };
  try {
    const { commandName, rest } = splitCommandLine(argv);
    if (commandName === undefined) return showGeneralHelp(rest, io);
    if (commandName === HELP_COMMAND) return showHelpFor(rest, io);
    const command = COMMANDS.find((candidate) => candidate.name === commandName);
    if (command === undefined) throw unknownCommand(commandName);

    const { values, positionals } = parseCommandArgs(command, rest);
    if (booleanOption(values, 'help')) {
      io.stdout.write(commandUsage(command));
      return ExitCode.SUCCESS;
    }
    reportContext.json = booleanOption(values, 'json');
    reportContext.spotId = spotOptions(values)[0] ?? (io.env.OPENWEB_SPOT_ID || undefined);
    reportContext.followUp = followUpCommandFor(values);
    let client: ExportsApiClient | undefined;
    const context: CommandContext = {
      io,
      values,
      positionals,
      json: reportContext.json,
      followUp: reportContext.followUp,
      client() {
        if (client === undefined) {
          const endpoint = resolveApiEndpoint({
            api: stringOption(values, 'api'),
            sigv4: booleanOption(values, 'sigv4'),
            region: stringOption(values, 'region'),
            env: io.env,
          });
          reportContext.signed = endpoint.sigV4 !== undefined;
          client = createApiClient(endpoint, io);
        }
        return client;
      },
    };
    return await command.run(context);
  } catch (error) {
    return reportError(error, io, reportContext);
  }
}

/**
 * Finds the command: the first argument that is neither an option nor a global option's value,
 * so `openweb-exports --api <url> list` works as well as `openweb-exports list --api <url>`.
 */
function splitCommandLine(argv: readonly string[]): CommandLine {
  const takesValue = new Set(
    Object.entries(GLOBAL_OPTIONS)
      .filter(([, option]) => option.type === 'string')
      .map(([name]) => `--${name}`),
  );
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--') break;
    if (takesValue.has(arg)) index += 1;
    else if (!arg.startsWith('-')) {
      return { commandName: arg, rest: [...argv.slice(0, index), ...argv.slice(index + 1)] };
    }
  }
  return { commandName: undefined, rest: [...argv] };
}

function unknownCommand(name: string): CliUsageError {
  const suggestion = suggestName(
    name,
    COMMANDS.map((command) => command.name),
  );
  return new CliUsageError(
    `unknown command ${name}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}`,
  );
}

/**
 * Refuses an option the command does not know, naming the nearest one it does: parseArgs' own
 * message is meant for developers (and quotes unevenly).
 */
function rejectUnknownOptions(command: CliCommand, args: readonly string[]): void {
  const options: CliOptionsConfig = { ...GLOBAL_OPTIONS, ...command.options };
  const longNames = Object.keys(options);
  const shortNames = new Set(Object.values(options).flatMap((option) => option.short ?? []));
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === '--') return;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0] as string;
      const option = Object.hasOwn(options, name) ? options[name] : undefined;
      if (option === undefined) {
        const suggestion = suggestName(name, longNames);
        throw new CliUsageError(
          `unknown option --${name}${suggestion === undefined ? '' : ` (did you mean --${suggestion}?)`}`,
          command.name,
        );
      }
      // The next argument is this option's value, whatever it looks like.
      if (option.type === 'string' && !arg.includes('=')) index += 1;
    } else if (arg.startsWith('-') && arg.length > 1) {
      const short = arg.slice(1, 2);
      if (!shortNames.has(short)) throw new CliUsageError(`unknown option -${short}`, command.name);
    }
  }
}

function parseCommandArgs(
  command: CliCommand,
  args: string[],
): { values: CliOptionValues; positionals: string[] } {
  rejectUnknownOptions(command, args);
  try {
    return parseArgs({
      args,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error), command.name);
  }
}

/** `--help` alone prints the general help; nothing at all is a usage error, short like the others. */
function showGeneralHelp(rest: readonly string[], io: CliIo): number {
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(generalUsage(COMMANDS));
    return ExitCode.SUCCESS;
  }
  return reportError(new CliUsageError('a command is missing'), io, { json: false, signed: false });
}

function showHelpFor(rest: readonly string[], io: CliIo): number {
  const name = rest.find((arg) => !arg.startsWith('-'));
  if (name === undefined) {
    io.stdout.write(generalUsage(COMMANDS));
    return ExitCode.SUCCESS;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) throw unknownCommand(name);
  io.stdout.write(commandUsage(command));
  return ExitCode.SUCCESS;
}

function createApiClient(endpoint: ApiEndpoint, io: CliIo): ExportsApiClient {
  const signer = endpoint.sigV4
    ? createSigV4RequestSigner({
        region: endpoint.sigV4.region,
        // The default chain (env, SSO, profiles, instance roles) is resolved on the first request.
        credentials: io.awsCredentials ?? fromNodeProviderChain(),
        now: io.now,
      })
    : undefined;
  return new ExportsApiClient({
    baseUrl: endpoint.url,
    fetch: io.fetch,
    ...(signer ? { signer } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
}
