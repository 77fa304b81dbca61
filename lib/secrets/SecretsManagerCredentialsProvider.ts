import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SPOT_ID_PATTERN } from '../exports/record/spotId';
import type {
  CredentialsProvider,
  GetCredentialsOptions,
  SpotCredentials,
} from '../exports/upstream/CredentialsProvider';
import {
  CredentialsError,
  CredentialsNotFoundError,
  CredentialsUnavailableError,
  InvalidCredentialsError,
} from '../exports/upstream/errors';
import { SETTINGS } from '../settings/settingsTable';
import { parseJsonQuietly, readSecretValue } from './spotCredentialsSchema';

export const DEFAULT_SECRETS_CACHE_MAX_AGE_SECONDS = SETTINGS.secretsCacheMaxAgeSeconds.default;

export interface SecretsManagerCredentialsProviderOptions {
  client: SecretsManagerClient;
  /** Secret name = prefix + spot id, e.g. `openweb-exports/spots/` + `sp_abc`. */
  secretNamePrefix: string;
  cacheMaxAgeSeconds?: number;
}

/**
 * One secret per spot holding `{"spotId", "apiKey"}`. Cached per secret with a
 * max age (Powertools Parameters); `forceRefresh` bypasses the cache after the
 * upstream rejected a key, so a rotated key is picked up at once.
 */
export class SecretsManagerCredentialsProvider implements CredentialsProvider {
  readonly #secrets: SecretsProvider;
  readonly #prefix: string;
  readonly #maxAgeSeconds: number;

  constructor(options: SecretsManagerCredentialsProviderOptions) {
    this.#secrets = new SecretsProvider({ awsSdkV3Client: options.client });
    this.#prefix = options.secretNamePrefix;
    this.#maxAgeSeconds = options.cacheMaxAgeSeconds ?? DEFAULT_SECRETS_CACHE_MAX_AGE_SECONDS;
  }

  secretNameFor(spotId: string): string {
    return `${this.#prefix}${spotId}`;
  }

  async getCredentials(spotId: string, options: GetCredentialsOptions = {}): Promise<SpotCredentials> {
    if (!SPOT_ID_PATTERN.test(spotId)) {
      throw new CredentialsNotFoundError(spotId, 'Secrets Manager (not a valid spot id)');
    }
    const secretName = this.secretNameFor(spotId);
    const source = `secret ${secretName}`;
    const raw = await this.#fetch(spotId, secretName, options.forceRefresh === true);
    if (typeof raw !== 'string') {
      throw new InvalidCredentialsError(spotId, source, ['the secret has no SecretString']);
    }
    const json = parseJsonQuietly(raw);
    if (!json.ok) {
      throw new InvalidCredentialsError(spotId, source, ['the secret value is not JSON']);
    }
    const secret = readSecretValue(json.value);
    if (!secret.ok) throw new InvalidCredentialsError(spotId, source, secret.issues);
    if (secret.value.spotId !== spotId) {
      // A secret copied from another spot would authenticate against the wrong property.
      throw new InvalidCredentialsError(spotId, source, [
        `spotId is ${secret.value.spotId}, expected ${spotId}`,
      ]);
    }
    return { spotId, apiKey: secret.value.apiKey };
  }

  async #fetch(spotId: string, secretName: string, forceFetch: boolean): Promise<unknown> {
    try {
      return await this.#secrets.get(secretName, { maxAge: this.#maxAgeSeconds, forceFetch });
    } catch (error) {
      if (error instanceof CredentialsError) throw error;
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      if (cause instanceof Error && cause.name === 'ResourceNotFoundException') {
        throw new CredentialsNotFoundError(spotId, `secret ${secretName}`, { cause });
      }
      throw new CredentialsUnavailableError(spotId, `secret ${secretName}`, { cause });
    }
  }
}
