import { type ExportSettings, FIXED_EXPORT_SETTINGS } from './exports/record/ExportSettings';
import { SPOT_ID_PATTERN } from './exports/record/spotId';
import { type FunctionConfig, readFunctionConfig } from './settings/functionConfig';
import { SETTINGS } from './settings/settingsTable';

/** Upstream hosts from OpenWeb's documentation; local mode points both at the simulator. */
export const DEFAULT_OPENWEB_AUTH_BASE_URL = SETTINGS.openWebAuthBaseUrl.default;
export const DEFAULT_OPENWEB_EXPORT_BASE_URL = SETTINGS.openWebExportBaseUrl.default;
export const DEFAULT_SECRET_NAME_PREFIX = SETTINGS.secretNamePrefix.default;

/**
 * The functions' configuration: each setting of the table where its `config` places it (the
 * upstream, the archive, the spots' credentials, the AWS resources, authorization), and the
 * export lifecycle's settings with the fixed ones. Resources are optional here so tools can
 * validate a partial environment; the adapters that need one say so.
 */
export type Config = Omit<FunctionConfig, 'exports'> & { exports: ExportSettings };

/** Names every variable that is wrong, so a misconfigured deploy fails once with the whole list. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Environment → typed config, each variable checked against the settings table
 * (lib/settings/settingsTable.ts). Empty strings count as unset. Throws ConfigError.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { config, problems } = readFunctionConfig(env);
  const freshnessTargets = readFreshnessTargets(
    config.resources.fleetFreshnessTargets || undefined,
    problems,
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...config,
    exports: {
      ...config.exports,
      ...FIXED_EXPORT_SETTINGS,
      ...(freshnessTargets !== undefined && { freshnessTargets }),
    },
  };
}

/** The archive's resources. Throws ConfigError naming each missing variable. */
export function requireArchiveResources(config: Config): {
  tableName: string;
  bucketName: string;
  eventBusName: string;
} {
  const { tableName, eventBusName } = config.resources;
  const { bucketName } = config.archive;
  if (tableName === undefined || bucketName === undefined) {
    throw new ConfigError([
      ...(tableName === undefined ? ['TABLE_NAME is required'] : []),
      ...(bucketName === undefined ? ['ARCHIVE_BUCKET_NAME is required'] : []),
    ]);
  }
  return { tableName, bucketName, eventBusName };
}

/** `FLEET_FRESHNESS_TARGETS`: `{"sp_a": 7200, "sp_b": null}`; a malformed value is added to `problems`. */
function readFreshnessTargets(
  text: string | undefined,
  problems: string[],
): Record<string, number | null> | undefined {
  if (text === undefined) return undefined;
  const problem = `${SETTINGS.fleetFreshnessTargets.env} must be a JSON object of spot ids to seconds or null`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    problems.push(problem);
    return undefined;
  }
  const valid =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.entries(parsed).every(
      ([spotId, seconds]) =>
        SPOT_ID_PATTERN.test(spotId) &&
        (seconds === null || (typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0)),
    );
  if (!valid) {
    problems.push(problem);
    return undefined;
  }
  return parsed as Record<string, number | null>;
}
