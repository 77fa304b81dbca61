import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CredentialsNotFoundError,
  CredentialsUnavailableError,
  InvalidCredentialsError,
} from '../../../../lib/exports/upstream/errors';
import { SecretsManagerCredentialsProvider } from '../../../../lib/secrets/SecretsManagerCredentialsProvider';
import { captureError } from '../../../support/captureError';

const PREFIX = 'openweb-exports/spots/';
const API_KEY = 'key-7f3a9c-secret-value';

function secretString(value: unknown): { SecretString: string } {
  return { SecretString: typeof value === 'string' ? value : JSON.stringify(value) };
}

describe('SecretsManagerCredentialsProvider', () => {
  const client = new SecretsManagerClient({ region: 'eu-west-1' });
  const secretsManager = mockClient(client);

  beforeEach(() => {
    secretsManager.reset();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the secret named prefix + spot id and returns the api key', async () => {
    // Prepare
    secretsManager.on(GetSecretValueCommand).resolves(secretString({ spotId: 'sp_abc', apiKey: API_KEY }));
    const provider = new SecretsManagerCredentialsProvider({ client, secretNamePrefix: PREFIX });

    // Act
    const credentials = await provider.getCredentials('sp_abc');

    // Assess
    expect(credentials).toEqual({ spotId: 'sp_abc', apiKey: API_KEY });
    expect(secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, { SecretId: `${PREFIX}sp_abc` });
  });

  it('serves repeated reads from the cache until the max age passes', async () => {
    // Prepare
    vi.useFakeTimers();
    secretsManager.on(GetSecretValueCommand).resolves(secretString({ spotId: 'sp_abc', apiKey: API_KEY }));
    const provider = new SecretsManagerCredentialsProvider({
      client,
      secretNamePrefix: PREFIX,
      cacheMaxAgeSeconds: 60,
    });

    // Act
    await provider.getCredentials('sp_abc');
    await provider.getCredentials('sp_abc');
    vi.advanceTimersByTime(30_000);
    await provider.getCredentials('sp_abc');
    const callsWithinMaxAge = secretsManager.commandCalls(GetSecretValueCommand).length;
    vi.advanceTimersByTime(31_000);
    await provider.getCredentials('sp_abc');

    // Assess
    expect(callsWithinMaxAge).toBe(1);
    expect(secretsManager).toHaveReceivedCommandTimes(GetSecretValueCommand, 2);
  });

  it('bypasses the cache on forceRefresh so a rotated key is used at once', async () => {
    // Prepare
    secretsManager
      .on(GetSecretValueCommand)
      .resolvesOnce(secretString({ spotId: 'sp_abc', apiKey: 'old-key' }))
      .resolves(secretString({ spotId: 'sp_abc', apiKey: 'rotated-key' }));
    const provider = new SecretsManagerCredentialsProvider({ client, secretNamePrefix: PREFIX });
    await provider.getCredentials('sp_abc');

    // Act
    const cached = await provider.getCredentials('sp_abc');
    const refreshed = await provider.getCredentials('sp_abc', { forceRefresh: true });
    const afterRefresh = await provider.getCredentials('sp_abc');

    // Assess
    expect(cached.apiKey).toBe('old-key');
    expect(refreshed.apiKey).toBe('rotated-key');
    expect(afterRefresh.apiKey).toBe('rotated-key');
    expect(secretsManager).toHaveReceivedCommandTimes(GetSecretValueCommand, 2);
  });

  it('keeps a cache per spot', async () => {
    // Prepare
    secretsManager
      .on(GetSecretValueCommand, { SecretId: `${PREFIX}sp_one` })
      .resolves(secretString({ spotId: 'sp_one', apiKey: 'key-one' }))
      .on(GetSecretValueCommand, { SecretId: `${PREFIX}sp_two` })
      .resolves(secretString({ spotId: 'sp_two', apiKey: 'key-two' }));
    const provider = new SecretsManagerCredentialsProvider({ client, secretNamePrefix: PREFIX });

    // Act
    const one = await provider.getCredentials('sp_one');
    const two = await provider.getCredentials('sp_two');

    // Assess
    expect([one.apiKey, two.apiKey]).toEqual(['key-one', 'key-two']);
  });

  it('reports a missing secret as CredentialsNotFoundError naming the secret', async () => {
    // Prepare
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(new ResourceNotFoundException({ message: 'Secrets Manager can’t find it', $metadata: {} }));
    const provider = new SecretsManagerCredentialsProvider({ client, secretNamePrefix: PREFIX });

    // Act
    const error = await captureError(provider.getCredentials('sp_missing'));

    // Assess
    expect(error).toBeInstanceOf(CredentialsNotFoundError);
    expect(error.message).toContain(`${PREFIX}sp_missing`);
  });

  it('reports other Secrets Manager failures as CredentialsUnavailableError with the cause', async () => {
    // Prepare
    const denied = Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' });
    secretsManager.on(GetSecretValueCommand).rejects(denied);
    const provider = new SecretsManagerCredentialsProvider({ client, secretNamePrefix: PREFIX });

    // Act
    const error = await captureError(provider.getCredentials('sp_abc'));

    // Assess
    expect(error).toBeInstanceOf(CredentialsUnavailableError);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it.each([
    ['a value that is not JSON', `apiKey=${API_KEY}`, 'not JSON'],
    ['a missing apiKey', { spotId: 'sp_abc' }, 'apiKey'],
    ['an empty apiKey', { spotId: 'sp_abc', apiKey: '  ' }, 'apiKey'],
    ['a malformed spotId', { spotId: 'abc', apiKey: API_KEY }, 'spotId'],
    ['another spot’s secret', { spotId: 'sp_other', apiKey: API_KEY }, 'expected sp_abc'],
  ])('rejects %s with an error naming the secret but never its value', async (_case, value, problem) => {
    // Prepare
    secretsManager.on(GetSecretValueCommand).resolves(secretString(value));
    const provider = new SecretsManagerCredentialsProvider({ client, secretNamePrefix: PREFIX });

    // Act
    const error = await captureError(provider.getCredentials('sp_abc'));

    // Assess
    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect(error.message).toContain(`${PREFIX}sp_abc`);
    expect(error.message).toContain(problem);
    expect(error.message).not.toContain(API_KEY);
    expect(String(error.cause ?? '')).not.toContain(API_KEY);
  });

  it('rejects a binary-only secret', async () => {
    // Prepare
    secretsManager.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2, 3]) });
    const provider = new SecretsManagerCredentialsProvider({ client, secretNamePrefix: PREFIX });

    // Act
    const error = await captureError(provider.getCredentials('sp_abc'));

    // Assess
    expect(error).toBeInstanceOf(InvalidCredentialsError);
  });

  it('refuses a spot id that is not one before building a secret name from it', async () => {
    // Prepare
    const provider = new SecretsManagerCredentialsProvider({ client, secretNamePrefix: PREFIX });

    // Act
    const error = await captureError(provider.getCredentials('../admin'));

    // Assess
    expect(error).toBeInstanceOf(CredentialsNotFoundError);
    expect(secretsManager).not.toHaveReceivedCommand(GetSecretValueCommand);
  });
});
