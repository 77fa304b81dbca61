import { z } from 'zod';

/** Upstream hosts from OpenWeb's documentation; local mode points both at the simulator. */
export const DEFAULT_OPENWEB_AUTH_BASE_URL = 'https://api.openweb.com';
export const DEFAULT_OPENWEB_EXPORT_BASE_URL = 'https://api-exporter.openweb.com';
export const DEFAULT_SECRET_NAME_PREFIX = 'openweb-exports/spots/';

const baseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((url) => url.replace(/\/+$/, ''));

function integerInRange(defaultValue: number, min: number, max: number) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .default(defaultValue);
}

const environmentSchema = z.object({
  OPENWEB_AUTH_BASE_URL: baseUrl.default(DEFAULT_OPENWEB_AUTH_BASE_URL),
  OPENWEB_EXPORT_BASE_URL: baseUrl.default(DEFAULT_OPENWEB_EXPORT_BASE_URL),
  SECRET_NAME_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9/_+=.@-]{1,256}$/, 'may hold only letters, digits and /_+=.@-')
    .default(DEFAULT_SECRET_NAME_PREFIX),
  SECRETS_CACHE_MAX_AGE_SECONDS: integerInRange(300, 0, 86_400),
  LOCAL_SECRETS_FILE: z.string().min(1).optional(),
  UPSTREAM_REQUEST_TIMEOUT_MS: integerInRange(10_000, 100, 120_000),
  UPSTREAM_MAX_ATTEMPTS: integerInRange(4, 1, 10),
  UPSTREAM_RETRY_BUDGET_MS: integerInRange(20_000, 0, 600_000),
});

export interface OpenWebConfig {
  authBaseUrl: string;
  exportBaseUrl: string;
  requestTimeoutMs: number;
  maxAttempts: number;
  retryBudgetMs: number;
}

export type CredentialsConfig =
  | { source: 'secretsManager'; secretNamePrefix: string; cacheMaxAgeSeconds: number }
  | { source: 'file'; path: string };

export interface Config {
  openWeb: OpenWebConfig;
  credentials: CredentialsConfig;
}

/** Names every variable that is wrong, so a misconfigured deploy fails once with the whole list. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Environment → typed config. Empty strings count as unset. Throws ConfigError. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
  }
  const e = parsed.data;
  return {
    openWeb: {
      authBaseUrl: e.OPENWEB_AUTH_BASE_URL,
      exportBaseUrl: e.OPENWEB_EXPORT_BASE_URL,
      requestTimeoutMs: e.UPSTREAM_REQUEST_TIMEOUT_MS,
      maxAttempts: e.UPSTREAM_MAX_ATTEMPTS,
      retryBudgetMs: e.UPSTREAM_RETRY_BUDGET_MS,
    },
    credentials: e.LOCAL_SECRETS_FILE
      ? { source: 'file', path: e.LOCAL_SECRETS_FILE }
      : {
          source: 'secretsManager',
          secretNamePrefix: e.SECRET_NAME_PREFIX,
          cacheMaxAgeSeconds: e.SECRETS_CACHE_MAX_AGE_SECONDS,
        },
  };
}
