import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../../lib/config';
import { spotCredentialsFactory } from '../../../../../lib/runtime/adapterFactories/spotCredentialsFactory';
import { buildDependencies } from '../../../../../lib/runtime/buildDependencies';
import { InMemoryExportMetrics } from '../../../../../local/InMemoryExportMetrics';

const SPOT = 'sp_credentials';

describe('spotCredentialsFactory', () => {
  const client = new SecretsManagerClient({ region: 'eu-west-1' });
  const secretsManager = mockClient(client);

  beforeEach(() => {
    secretsManager.reset();
    secretsManager
      .on(GetSecretValueCommand)
      .resolves({ SecretString: JSON.stringify({ spotId: SPOT, apiKey: 'secret-key' }) });
  });

  const build = (env: Record<string, string>) =>
    buildDependencies(
      loadConfig(env),
      { credentials: spotCredentialsFactory },
      { metrics: new InMemoryExportMetrics(), clients: { secretsManager: client } },
    );

  it("reads a spot's key from Secrets Manager under the configured prefix", async () => {
    // Prepare
    const { credentials } = build({ SECRET_NAME_PREFIX: 'exports/spots/' });

    // Act
    const read = await credentials.getCredentials(SPOT);

    // Assess
    expect(read).toEqual({ spotId: SPOT, apiKey: 'secret-key' });
    expect(secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, {
      SecretId: `exports/spots/${SPOT}`,
    });
  });

  it('reads the keys from a local file when LOCAL_SECRETS_FILE is set, never asking Secrets Manager', async () => {
    // Prepare
    const directory = await mkdtemp(join(tmpdir(), 'spots-'));
    const path = join(directory, 'spots.json');
    await writeFile(path, JSON.stringify({ [SPOT]: { apiKey: 'file-key' } }));

    try {
      // Act
      const { credentials } = build({ LOCAL_SECRETS_FILE: path });
      const read = await credentials.getCredentials(SPOT);

      // Assess
      expect(read.apiKey).toBe('file-key');
      expect(secretsManager).not.toHaveReceivedCommand(GetSecretValueCommand);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
