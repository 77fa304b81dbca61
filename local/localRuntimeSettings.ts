import { resolve } from 'node:path';
import { z } from 'zod';
import { parseStackConfig, type StackConfig, StackConfigError } from '../infra/stackConfig';
import { LocalRuntimeConfigError } from './errors';
import { DEFAULT_LOCAL_DATA_DIR, IN_MEMORY_DATA_DIR } from './localDataLayout';
import { EXPORT_RATE_LIMIT_SCOPES, type ExportRateLimitScope } from './openweb-simulator/ExportRateLimit';

export const DEFAULT_LOCAL_API_PORT = 3000;
export const DEFAULT_SIMULATOR_PORT = 4010;
/** With the simulator: a simulated one-day export (30 s + 24 min) takes about 15 s. */
export const DEFAULT_SIMULATED_TIME_SCALE = 0.01;
/** The upstream's documented auth limit, per client address. */
export const DEFAULT_SIMULATOR_AUTH_REQUESTS_PER_SECOND = 1;
/** Bounds the simulator's own bookkeeping; far above any real limit worth simulating. */
const MAX_SIMULATOR_REQUESTS_PER_SECOND = 100_000;
/** A real upstream runs in real time, so polling must too. */
export const DEFAULT_UPSTREAM_TIME_SCALE = 1;
/** Enough for several files of 100,000 records; the simulator builds each file in memory. */
export const MAX_SIMULATED_RECORDS_PER_EXPORT = 1_000_000;
/** Simulator keys only (see the simulator's DEMO_SPOTS), never real credentials. */
export const DEMO_SECRETS_FILE = 'local/demo-spots.json';
/** Quiet enough that the runtime's own lines stay readable. */
export const DEFAULT_LOCAL_LOG_LEVEL = 'WARN';

export const LOCAL_LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
export type LocalLogLevel = (typeof LOCAL_LOG_LEVELS)[number];

const MAX_PORT = 65_535;

export type LocalUpstream =
  | {
      kind: 'simulator';
      port: number;
      /** 0 = unlimited. */
      authRequestsPerSecond: number;
      /** Whether the simulator's auth 429s carry `Retry-After`. */
      authRateLimitRetryAfter: boolean;
      /** Comment records each export holds (split into files by `maxRecordsInFile`); the simulator's default when unset. */
      recordsPerExport: number | undefined;
      /** Undefined = unlimited. */
      exportRequestsPerSecond: number | undefined;
      exportRateLimitScope: ExportRateLimitScope;
    }
  | { kind: 'openweb'; authBaseUrl: string | undefined; exportBaseUrl: string | undefined };

/** What `npm start` runs with, from its environment. */
export interface LocalRuntimeSettings {
  /** 0 picks a free port. */
  apiPort: number;
  upstream: LocalUpstream;
  /** Absolute path of the credentials file (`{"sp_…": {"apiKey": "…"}}`). */
  secretsFile: string;
  /** Real seconds per simulated or deployed second: the simulator, workflow waits, deadline, rate schedules. */
  timeScale: number;
  /** Absolute; undefined keeps everything in memory. */
  dataDir: string | undefined;
  logLevel: LocalLogLevel;
  /** Whether finished exports are archived (to the in-process S3 stand-in). */
  archive: boolean;
  /** The deployment's configuration, validated, and as given (for synthesis). */
  stackConfig: StackConfig;
  rawStackConfig: unknown;
}

export interface LocalRuntimeSettingsContext {
  /** Relative paths are resolved against this. */
  cwd: string;
  /** Where the default data dir and the demo credentials are. */
  projectRoot: string;
  /** `context.openwebExports` of cdk.json, used when LOCAL_STACK_CONFIG is unset. */
  cdkJsonStackConfig?: unknown;
}

function port(defaultValue: number) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(MAX_PORT, `must be at most ${MAX_PORT}`)
    .default(defaultValue);
}

function requestsPerSecond(min: number) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(MAX_SIMULATOR_REQUESTS_PER_SECOND, `must be at most ${MAX_SIMULATOR_REQUESTS_PER_SECOND}`);
}

const logLevel = z
  .string()
  .transform((value) => value.trim().toUpperCase())
  .pipe(z.enum(LOCAL_LOG_LEVELS, { error: `must be one of ${LOCAL_LOG_LEVELS.join(', ')}` }));

const environmentSchema = z.object({
  PORT: port(DEFAULT_LOCAL_API_PORT),
  SIMULATOR_PORT: port(DEFAULT_SIMULATOR_PORT),
  SIMULATOR_AUTH_REQUESTS_PER_SECOND: requestsPerSecond(0).default(
    DEFAULT_SIMULATOR_AUTH_REQUESTS_PER_SECOND,
  ),
  SIMULATOR_AUTH_RETRY_AFTER: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  SIMULATOR_EXPORT_REQUESTS_PER_SECOND: requestsPerSecond(1).optional(),
  SIMULATOR_RECORDS_PER_EXPORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(MAX_SIMULATED_RECORDS_PER_EXPORT, `must be at most ${MAX_SIMULATED_RECORDS_PER_EXPORT}`)
    .optional(),
  LOCAL_ARCHIVE: z
    .enum(['on', 'off'], { error: 'must be on or off' })
    .default('on')
    .transform((value) => value === 'on'),
  SIMULATOR_EXPORT_RATE_LIMIT_SCOPE: z
    .enum(EXPORT_RATE_LIMIT_SCOPES, { error: `must be one of ${EXPORT_RATE_LIMIT_SCOPES.join(', ')}` })
    .default('clientAddress'),
  OPENWEB_AUTH_BASE_URL: z.string().optional(),
  OPENWEB_EXPORT_BASE_URL: z.string().optional(),
  LOCAL_SECRETS_FILE: z.string().optional(),
  LOCAL_TIME_SCALE: z.coerce
    .number({ error: 'must be a number' })
    .positive('must be greater than 0')
    .max(1, 'must be at most 1 (real time)')
    .optional(),
  LOCAL_DATA_DIR: z.string().optional(),
  POWERTOOLS_LOG_LEVEL: logLevel.optional(),
  LOG_LEVEL: logLevel.optional(),
  LOCAL_STACK_CONFIG: z.string().optional(),
});

/**
 * The local runtime's environment → settings. Empty strings count as unset.
 * @throws LocalRuntimeConfigError naming every bad variable.
 */
export function parseLocalRuntimeSettings(
  env: NodeJS.ProcessEnv,
  context: LocalRuntimeSettingsContext,
): LocalRuntimeSettings {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new LocalRuntimeConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  const usesSimulator = e.OPENWEB_AUTH_BASE_URL === undefined && e.OPENWEB_EXPORT_BASE_URL === undefined;
  if (!usesSimulator && e.LOCAL_SECRETS_FILE === undefined) {
    // The demo keys only open the simulator; a real upstream needs the publisher's own.
    problems.push(
      'LOCAL_SECRETS_FILE is required when OPENWEB_AUTH_BASE_URL or OPENWEB_EXPORT_BASE_URL is set',
    );
  }
  const { stackConfig, rawStackConfig } = readStackConfig(e.LOCAL_STACK_CONFIG, context, problems);
  if (stackConfig === undefined || problems.length > 0) throw new LocalRuntimeConfigError(problems);

  const dataDir = e.LOCAL_DATA_DIR ?? resolve(context.projectRoot, DEFAULT_LOCAL_DATA_DIR);
  return {
    apiPort: e.PORT,
    upstream: usesSimulator
      ? {
          kind: 'simulator',
          port: e.SIMULATOR_PORT,
          authRequestsPerSecond: e.SIMULATOR_AUTH_REQUESTS_PER_SECOND,
          authRateLimitRetryAfter: e.SIMULATOR_AUTH_RETRY_AFTER,
          recordsPerExport: e.SIMULATOR_RECORDS_PER_EXPORT,
          exportRequestsPerSecond: e.SIMULATOR_EXPORT_REQUESTS_PER_SECOND,
          exportRateLimitScope: e.SIMULATOR_EXPORT_RATE_LIMIT_SCOPE,
        }
      : { kind: 'openweb', authBaseUrl: e.OPENWEB_AUTH_BASE_URL, exportBaseUrl: e.OPENWEB_EXPORT_BASE_URL },
    secretsFile: resolve(
      context.cwd,
      e.LOCAL_SECRETS_FILE ?? resolve(context.projectRoot, DEMO_SECRETS_FILE),
    ),
    timeScale:
      e.LOCAL_TIME_SCALE ?? (usesSimulator ? DEFAULT_SIMULATED_TIME_SCALE : DEFAULT_UPSTREAM_TIME_SCALE),
    dataDir: dataDir.toLowerCase() === IN_MEMORY_DATA_DIR ? undefined : resolve(context.cwd, dataDir),
    // Powertools' own precedence between the two names.
    logLevel: e.POWERTOOLS_LOG_LEVEL ?? e.LOG_LEVEL ?? DEFAULT_LOCAL_LOG_LEVEL,
    archive: e.LOCAL_ARCHIVE,
    stackConfig,
    rawStackConfig,
  };
}

function readStackConfig(
  text: string | undefined,
  context: LocalRuntimeSettingsContext,
  problems: string[],
): { stackConfig: StackConfig | undefined; rawStackConfig: unknown } {
  let raw: unknown = context.cdkJsonStackConfig ?? {};
  const source = text === undefined ? 'cdk.json context' : 'LOCAL_STACK_CONFIG';
  if (text !== undefined) {
    try {
      raw = JSON.parse(text);
    } catch {
      problems.push('LOCAL_STACK_CONFIG is not valid JSON');
      return { stackConfig: undefined, rawStackConfig: undefined };
    }
  }
  try {
    return { stackConfig: parseStackConfig(raw), rawStackConfig: raw };
  } catch (error) {
    if (!(error instanceof StackConfigError)) throw error;
    problems.push(...error.problems.map((problem) => `${source}: ${problem}`));
    return { stackConfig: undefined, rawStackConfig: undefined };
  }
}
