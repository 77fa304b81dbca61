import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, SERVICE_NAME } from '../../../../lib/observability/createLogger';

/** The JSON lines a logger writes while `log` runs. */
function linesOf(log: () => void): Record<string, unknown>[] {
  const written: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    log();
  } finally {
    write.mockRestore();
  }
  return written
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe('createLogger', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("writes JSON lines naming the service, unless Powertools' variable names another", () => {
    // Prepare
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', undefined);

    // Act
    const ours = linesOf(() => createLogger({ logLevel: 'INFO' }).info('started'));
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'exports-eu');
    const theirs = linesOf(() => createLogger({ logLevel: 'INFO' }).info('started'));

    // Assess
    expect(ours).toEqual([expect.objectContaining({ message: 'started', service: SERVICE_NAME })]);
    expect(theirs).toEqual([expect.objectContaining({ service: 'exports-eu' })]);
  });

  it('writes nothing below the level it is given', () => {
    // Act
    const lines = linesOf(() => createLogger({ logLevel: 'ERROR' }).warn('quiet'));

    // Assess
    expect(lines).toEqual([]);
  });
});
