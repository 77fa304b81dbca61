import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CredentialsNotFoundError,
  CredentialsUnavailableError,
  InvalidCredentialsError,
} from '../../../../lib/exports/upstream/errors';
import { FileCredentialsProvider } from '../../../../lib/secrets/FileCredentialsProvider';
import { captureError } from '../../../support/captureError';

describe('FileCredentialsProvider', () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openweb-credentials-'));
    path = join(dir, 'spots.json');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns the api key of a spot in the file', async () => {
    // Prepare
    await writeFile(path, JSON.stringify({ sp_abc: { apiKey: 'key-abc' }, sp_def: { apiKey: 'key-def' } }));
    const provider = new FileCredentialsProvider(path);

    // Act
    const credentials = await provider.getCredentials('sp_def');

    // Assess
    expect(credentials).toEqual({ spotId: 'sp_def', apiKey: 'key-def' });
    expect(await provider.spotIds()).toEqual(['sp_abc', 'sp_def']);
  });

  it('keeps what it read until asked to refresh', async () => {
    // Prepare
    await writeFile(path, JSON.stringify({ sp_abc: { apiKey: 'old-key' } }));
    const provider = new FileCredentialsProvider(path);
    await provider.getCredentials('sp_abc');
    await writeFile(path, JSON.stringify({ sp_abc: { apiKey: 'new-key' } }));

    // Act
    const cached = await provider.getCredentials('sp_abc');
    const refreshed = await provider.getCredentials('sp_abc', { forceRefresh: true });

    // Assess
    expect(cached.apiKey).toBe('old-key');
    expect(refreshed.apiKey).toBe('new-key');
  });

  it('reports a spot that is not in the file as CredentialsNotFoundError', async () => {
    // Prepare
    await writeFile(path, JSON.stringify({ sp_abc: { apiKey: 'key-abc' } }));
    const provider = new FileCredentialsProvider(path);

    // Act
    const error = await captureError(provider.getCredentials('sp_nope'));

    // Assess
    expect(error).toBeInstanceOf(CredentialsNotFoundError);
    expect(error.message).toContain(path);
  });

  it('does not treat inherited object keys as spots', async () => {
    // Prepare
    await writeFile(path, JSON.stringify({ sp_abc: { apiKey: 'key-abc' } }));
    const provider = new FileCredentialsProvider(path);

    // Act
    const error = await captureError(provider.getCredentials('constructor'));

    // Assess
    expect(error).toBeInstanceOf(CredentialsNotFoundError);
  });

  it('reports a missing file as CredentialsNotFoundError and reads it once it appears', async () => {
    // Prepare
    const provider = new FileCredentialsProvider(path);
    const missing = await captureError(provider.getCredentials('sp_abc'));
    await writeFile(path, JSON.stringify({ sp_abc: { apiKey: 'key-abc' } }));

    // Act
    const credentials = await provider.getCredentials('sp_abc');

    // Assess
    expect(missing).toBeInstanceOf(CredentialsNotFoundError);
    expect(credentials.apiKey).toBe('key-abc');
  });

  it('reports an unreadable path as CredentialsUnavailableError', async () => {
    // Prepare
    const provider = new FileCredentialsProvider(dir);

    // Act
    const error = await captureError(provider.getCredentials('sp_abc'));

    // Assess
    expect(error).toBeInstanceOf(CredentialsUnavailableError);
  });

  it.each([
    ['not JSON', 'sp_abc=secret-key-value', 'not JSON'],
    ['an entry without apiKey', JSON.stringify({ sp_abc: { key: 'secret-key-value' } }), 'sp_abc.apiKey'],
    ['an array', JSON.stringify(['secret-key-value']), 'value'],
  ])('rejects a file that is %s without quoting its contents', async (_case, contents, problem) => {
    // Prepare
    await writeFile(path, contents);
    const provider = new FileCredentialsProvider(path);

    // Act
    const error = await captureError(provider.getCredentials('sp_abc'));

    // Assess
    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect(error.message).toContain(problem);
    expect(error.message).not.toContain('secret-key-value');
  });
});
