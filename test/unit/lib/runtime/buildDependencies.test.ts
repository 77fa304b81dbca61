import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../lib/config';
import { lifecycleDependencies } from '../../../support/lifecycleDependencies';
import { type MockedAwsRuntime, SPOT, startMockedAwsRuntime } from '../../functions/support/mockedAwsRuntime';

describe('buildDependencies with the lifecycle adapters', () => {
  let aws: MockedAwsRuntime;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
  });

  afterEach(async () => {
    await aws.close();
  });

  it('shares one upstream token between containers through the table', async () => {
    // Prepare: two containers, each with its own client and in-process token cache
    const otherContainer = lifecycleDependencies(aws.config, {
      clients: aws.clients,
      now: aws.clock.now,
    });
    const created = await aws.dependencies.upstream.createExport(SPOT, { conversationId: `${SPOT}_1` });

    // Act
    await otherContainer.upstream.getExportStatus(SPOT, created.exportId);

    // Assess
    expect(aws.simulator.requestsTo('auth')).toHaveLength(1);
    expect(aws.simulator.requestsTo('status')).toHaveLength(1);
    // Only the container that authenticated needed the key; the other used the shared token.
    expect(aws.secretsManager).toHaveReceivedCommandTimes(GetSecretValueCommand, 1);
  });

  it('reads credentials from a local file when LOCAL_SECRETS_FILE is set, without Secrets Manager', async () => {
    // Prepare
    const directory = await mkdtemp(join(tmpdir(), 'spots-'));
    const path = join(directory, 'spots.json');
    await writeFile(path, JSON.stringify({ [SPOT]: { apiKey: 'demo-api-key' } }));
    const config = { ...aws.config, credentials: { ...aws.config.credentials, file: path } };
    const deps = lifecycleDependencies(config, { clients: aws.clients, now: aws.clock.now });

    try {
      // Act
      await deps.upstream.createExport(SPOT, { conversationId: `${SPOT}_1` });

      // Assess
      expect(aws.simulator.requestsTo('create')).toHaveLength(1);
      expect(aws.secretsManager).not.toHaveReceivedCommand(GetSecretValueCommand);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('caps the upstream requests in flight at the configured UPSTREAM_MAX_CONCURRENCY', async () => {
    // Prepare
    const config = { ...aws.config, openWeb: { ...aws.config.openWeb, maxConcurrentRequests: 2 } };
    let open = 0;
    let mostOpen = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      try {
        return await fetch(input, init);
      } finally {
        open -= 1;
      }
    };
    const deps = lifecycleDependencies(config, {
      clients: aws.clients,
      now: aws.clock.now,
      fetch: countingFetch,
    });
    const created = await deps.upstream.createExport(SPOT, { conversationId: `${SPOT}_1` });

    // Act
    await Promise.all(Array.from({ length: 6 }, () => deps.upstream.getExportStatus(SPOT, created.exportId)));

    // Assess
    expect(aws.simulator.requestsTo('status')).toHaveLength(6);
    expect(mostOpen).toBe(2);
  });

  it('refuses to build without the table and the state machine', () => {
    // Act / Assess
    expect(() => lifecycleDependencies(loadConfig({}), { clients: aws.clients })).toThrow(ConfigError);
  });

  it('takes the lifecycle settings from the configuration', () => {
    // Act
    const deps = lifecycleDependencies(aws.config, { clients: aws.clients });

    // Assess
    expect(deps.settings).toBe(aws.config.exports);
  });
});
