import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../../../../lib/config';
import { s3ArchiveReaderFactory } from '../../../../../lib/runtime/adapterFactories/s3ArchiveReaderFactory';
import { buildDependencies } from '../../../../../lib/runtime/buildDependencies';
import { InMemoryExportMetrics } from '../../../../../local/InMemoryExportMetrics';
import { captureError } from '../../../../support/captureError';

describe('s3ArchiveReaderFactory', () => {
  const saved = { ...process.env };

  beforeEach(() => {
    process.env.AWS_REGION = 'eu-west-1';
    process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'example-secret';
  });

  afterEach(() => {
    process.env = { ...saved };
  });

  const build = (env: Record<string, string>) =>
    buildDependencies(
      loadConfig(env),
      { archiveReader: s3ArchiveReaderFactory },
      { metrics: new InMemoryExportMetrics() },
    );

  it("presigns links to the archive bucket (ARCHIVE_BUCKET_URL) in the function's region, with its own credentials", async () => {
    // Prepare
    const { archiveReader } = build({ ARCHIVE_BUCKET_URL: 'https://archive-1.s3.eu-west-1.amazonaws.com' });

    // Act
    const url = new URL(await archiveReader.downloadUrl('raw/sp_abc/ex_1.csv.gz', 300));

    // Assess
    expect(url.origin).toBe('https://archive-1.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/raw/sp_abc/ex_1.csv.gz');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(
      /^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/,
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
  });

  it('needs the bucket URL and the region', async () => {
    // Prepare
    delete process.env.AWS_REGION;

    // Act
    const noBucket = await captureError((async () => build({}))());
    const noRegion = await captureError(
      (async () => build({ ARCHIVE_BUCKET_URL: 'https://archive-1.s3.eu-west-1.amazonaws.com' }))(),
    );

    // Assess
    expect((noBucket as ConfigError).problems).toEqual(['ARCHIVE_BUCKET_URL is required']);
    expect((noRegion as ConfigError).problems).toEqual(['AWS_REGION is required']);
  });
});
