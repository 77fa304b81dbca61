import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../../lib/config';
import { AWS_CONNECTION_TIMEOUT_MS } from '../../../../../lib/runtime/AwsClients';
import { archiveS3Client } from '../../../../../lib/runtime/adapterFactories/archiveS3Client';
import type { AdapterContext } from '../../../../../lib/runtime/buildDependencies';

function context(clients: AdapterContext['clients']): AdapterContext {
  return { config: loadConfig({}), clients } as AdapterContext;
}

describe('archiveS3Client', () => {
  it('uses the client it is given (mocked in tests, the S3 stand-in locally)', () => {
    // Prepare
    const given = new S3Client({ region: 'eu-west-1' });

    // Act / Assess
    expect(archiveS3Client(context({ s3: given }))).toBe(given);
  });

  it('otherwise builds one that bounds connecting only, since uploads stream for minutes', async () => {
    // Act
    const client = archiveS3Client(context({}));
    const handler = client.config.requestHandler as unknown as {
      configProvider: Promise<Record<string, unknown>>;
    };
    const handlerConfig = await handler.configProvider;

    // Assess
    expect(client).toBeInstanceOf(S3Client);
    expect(handlerConfig.connectionTimeout).toBe(AWS_CONNECTION_TIMEOUT_MS);
    expect(handlerConfig.requestTimeout).toBeUndefined();
  });
});
