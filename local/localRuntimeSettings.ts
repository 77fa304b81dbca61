import { resolve } from 'node:path';
import { parseStackConfig, type StackConfig, StackConfigError } from '../infra/stackConfig';
import { IN_MEMORY_DATA_DIR } from '../lib/settings/localRuntimeLayout';
import { readEnvironment } from '../lib/settings/readEnvironment';
import type { Setting, SettingValue } from '../lib/settings/Setting';
import {
  REAL_TIME_SCALE,
  SETTINGS,
  type SettingName,
  type Settings,
  SIMULATED_TIME_SCALE,
} from '../lib/settings/settingsTable';
import { LocalRuntimeConfigError } from './errors';
import type { ExportRateLimitScope } from './openweb-simulator/ExportRateLimit';

export type LocalLogLevel = Settings['localLogLevel']['kind']['values'][number];

export type LocalUpstream =
  | {
      kind: 'simulator';
      port: number;
      /** 0 = unlimited. */
      authRequestsPerSecond: number;
      /** Whether the simulator's auth 429s carry `Retry-After`. */
      authRateLimitRetryAfter: boolean;
      /** The simulator's comments (UpstreamComments.ts): per hour of each spot, and how they change. */
      comments: SimulatorComments;
      /** Undefined = unlimited. */
      exportRequestsPerSecond: number | undefined;
      exportRateLimitScope: ExportRateLimitScope;
    }
  | { kind: 'openweb'; authBaseUrl: string | undefined; exportBaseUrl: string | undefined };

export interface SimulatorComments {
  commentsPerHour: number;
  statusChangeShare: number;
  editShare: number;
  deleteShare: number;
  /** Simulated seconds. */
  maxChangeDelaySeconds: number;
}

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

/** What `npm start` reads: the table's local settings, and the upstream's URLs (set: the real upstream, not the simulator). */
type LocalSettingName =
  | { [N in SettingName]: Settings[N]['scope'] extends 'local' ? N : never }[SettingName]
  | 'openWebAuthBaseUrl'
  | 'openWebExportBaseUrl';

const LOCAL_SETTING_NAMES = (Object.keys(SETTINGS) as SettingName[]).filter(
  (name): name is LocalSettingName =>
    SETTINGS[name].scope === 'local' || name === 'openWebAuthBaseUrl' || name === 'openWebExportBaseUrl',
);

/** As set in the environment; undefined when unset (the defaults are applied below, some relative to the project). */
type LocalSettingValues = { [N in LocalSettingName]: SettingValue<Settings[N]> | undefined };

/**
 * The local runtime's environment → settings, each variable checked against the settings table.
 * Empty strings count as unset.
 * @throws LocalRuntimeConfigError naming every bad variable.
 */
export function parseLocalRuntimeSettings(
  env: NodeJS.ProcessEnv,
  context: LocalRuntimeSettingsContext,
): LocalRuntimeSettings {
  const reading = readEnvironment(
    LOCAL_SETTING_NAMES.map((name): Setting => SETTINGS[name]),
    env,
    { applyDefault: () => false },
  );
  if (reading.problems.length > 0) throw new LocalRuntimeConfigError(reading.problems);
  const e = Object.fromEntries(
    LOCAL_SETTING_NAMES.map((name) => [name, reading.values[SETTINGS[name].env]]),
  ) as LocalSettingValues;

  const problems: string[] = [];
  const usesSimulator = e.openWebAuthBaseUrl === undefined && e.openWebExportBaseUrl === undefined;
  if (!usesSimulator && e.localSecretsFile === undefined) {
    // The demo keys only open the simulator; a real upstream needs the publisher's own.
    problems.push(
      'LOCAL_SECRETS_FILE is required when OPENWEB_AUTH_BASE_URL or OPENWEB_EXPORT_BASE_URL is set',
    );
  }
  const { stackConfig, rawStackConfig } = readStackConfig(e.localStackConfig, context, problems);
  if (stackConfig === undefined || problems.length > 0) throw new LocalRuntimeConfigError(problems);

  const dataDir = e.localDataDir ?? resolve(context.projectRoot, SETTINGS.localDataDir.default);
  return {
    apiPort: e.localApiPort ?? SETTINGS.localApiPort.default,
    upstream: usesSimulator
      ? {
          kind: 'simulator',
          port: e.simulatorPort ?? SETTINGS.simulatorPort.default,
          authRequestsPerSecond:
            e.simulatorAuthRequestsPerSecond ?? SETTINGS.simulatorAuthRequestsPerSecond.default,
          authRateLimitRetryAfter: e.simulatorAuthRetryAfter ?? SETTINGS.simulatorAuthRetryAfter.default,
          comments: {
            commentsPerHour: e.simulatorCommentsPerHour ?? SETTINGS.simulatorCommentsPerHour.default,
            statusChangeShare: e.simulatorStatusChangeShare ?? SETTINGS.simulatorStatusChangeShare.default,
            editShare: e.simulatorEditShare ?? SETTINGS.simulatorEditShare.default,
            deleteShare: e.simulatorDeleteShare ?? SETTINGS.simulatorDeleteShare.default,
            maxChangeDelaySeconds:
              e.simulatorMaxChangeDelaySeconds ?? SETTINGS.simulatorMaxChangeDelaySeconds.default,
          },
          exportRequestsPerSecond: e.simulatorExportRequestsPerSecond,
          exportRateLimitScope:
            e.simulatorExportRateLimitScope ?? SETTINGS.simulatorExportRateLimitScope.default,
        }
      : { kind: 'openweb', authBaseUrl: e.openWebAuthBaseUrl, exportBaseUrl: e.openWebExportBaseUrl },
    secretsFile: resolve(
      context.cwd,
      e.localSecretsFile ?? resolve(context.projectRoot, SETTINGS.localSecretsFile.default),
    ),
    timeScale: e.localTimeScale ?? (usesSimulator ? SIMULATED_TIME_SCALE : REAL_TIME_SCALE),
    dataDir: dataDir.toLowerCase() === IN_MEMORY_DATA_DIR ? undefined : resolve(context.cwd, dataDir),
    logLevel: e.localLogLevel ?? SETTINGS.localLogLevel.default,
    archive: e.localArchive ?? SETTINGS.localArchive.default,
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
