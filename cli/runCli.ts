import { parseArgs } from 'node:util';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { type ApiEndpoint, resolveApiEndpoint } from './ApiEndpoint';
import type { CliCommand, CliOptionValues, CommandContext } from './CliCommand';
import type { CliIo } from './CliIo';
import { booleanOption, GLOBAL_OPTIONS, stringOption } from './cliOptions';
import { COMMANDS } from './commands';
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
    if (command === undefined) throw new CliUsageError(`unknown command '${commandName}'`);

    const { values, positionals } = parseCommandArgs(command, rest);
    if (booleanOption(values, 'help')) {
      io.stdout.write(commandUsage(command));
      return ExitCode.SUCCESS;
    }
    reportContext.json = booleanOption(values, 'json');
    reportContext.spotId = stringOption(values, 'spot') ?? (io.env.OPENWEB_SPOT_ID || undefined);
    let client: ExportsApiClient | undefined;
    const context: CommandContext = {
      io,
      values,
      positionals,
      json: reportContext.json,
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

function parseCommandArgs(
  command: CliCommand,
  args: string[],
): { values: CliOptionValues; positionals: string[] } {
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

function showGeneralHelp(rest: readonly string[], io: CliIo): number {
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(generalUsage(COMMANDS));
    return ExitCode.SUCCESS;
  }
  io.stderr.write(generalUsage(COMMANDS));
  return reportError(new CliUsageError('a command is missing'), io, { json: false, signed: false });
}

function showHelpFor(rest: readonly string[], io: CliIo): number {
  const name = rest.find((arg) => !arg.startsWith('-'));
  if (name === undefined) {
    io.stdout.write(generalUsage(COMMANDS));
    return ExitCode.SUCCESS;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) throw new CliUsageError(`unknown command '${name}'`);
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
