import { afterAll, describe, expect, it } from 'vitest';
import { parseStackConfig, StackConfigError } from '../../../infra/stackConfig';
import { ConfigError, loadConfig } from '../../../lib/config';
import { HandlerNames } from '../../../lib/http/routeTable';
import {
  checkDownloadLink,
  DEFAULT_DOWNLOAD_HOSTS,
  downloadLinkPolicy,
} from '../../../lib/openweb/downloadLinkPolicy';
import { isDownloadHostEntry } from '../../../lib/settings/downloadHostEntry';
import { removeTestAssemblies, synthesizeTestStack } from '../infra/synthesizeTestStack';
import { functionOf } from '../infra/templateQueries';

const EXPORT_BASE_URL = 'https://api-exporter.openweb.com';

describe('download host configuration', () => {
  afterAll(() => {
    removeTestAssemblies();
  });

  it.each(['files.openweb.com', '*.openweb.com', '*.eu.cdn.example.org', 'localhost:8080', '127.0.0.1'])(
    'accepts the entry %s',
    (entry) => {
      // Act / Assess
      expect(isDownloadHostEntry(entry)).toBe(true);
    },
  );

  it.each(['*', '*.com', 'a.*.b', 'https://files.openweb.com', 'a b', 'a.b:99999', ''])(
    'refuses the entry %j',
    (entry) => {
      // Act / Assess
      expect(isDownloadHostEntry(entry)).toBe(false);
      expect(() => downloadLinkPolicy(EXPORT_BASE_URL, [entry])).toThrow(RangeError);
    },
  );

  it('takes entries in lower case: the client lower-cases what it is given', () => {
    // Act / Assess
    expect(isDownloadHostEntry('Files.OpenWeb.com')).toBe(false);
    expect(
      checkDownloadLink(
        'https://files.openweb.com/1',
        downloadLinkPolicy(EXPORT_BASE_URL, ['Files.OpenWeb.com']),
      ),
    ).toBeUndefined();
  });

  it('reads OPENWEB_DOWNLOAD_HOSTS as a comma-separated list, in lower case, defaulting to OpenWeb’s domain', () => {
    // Act
    const configured = loadConfig({ OPENWEB_DOWNLOAD_HOSTS: ' Downloads.Example.NET , *.cdn.example.org,' });
    const unset = loadConfig({});

    // Assess
    expect(configured.openWeb.downloadHosts).toEqual(['downloads.example.net', '*.cdn.example.org']);
    expect(unset.openWeb.downloadHosts).toEqual(DEFAULT_DOWNLOAD_HOSTS);
  });

  it.each(['*', '*.com', 'https://downloads.example.net', ',,'])(
    'refuses OPENWEB_DOWNLOAD_HOSTS=%j',
    (value) => {
      // Act / Assess
      expect(() => loadConfig({ OPENWEB_DOWNLOAD_HOSTS: value })).toThrow(ConfigError);
    },
  );

  it('passes openWebDownloadHosts to every function, and refuses a bad entry at synthesis', () => {
    // Act
    const { template } = synthesizeTestStack({
      openWebDownloadHosts: ['downloads.example.net', '*.cdn.example.org'],
    });

    // Assess
    for (const handler of Object.values(HandlerNames)) {
      const variables = (functionOf(template, handler)[1].Properties.Environment as { Variables: object })
        .Variables;
      expect(variables).toMatchObject({ OPENWEB_DOWNLOAD_HOSTS: 'downloads.example.net,*.cdn.example.org' });
    }
    expect(() => parseStackConfig({ openWebDownloadHosts: ['*.com'] })).toThrow(StackConfigError);
    expect(() => parseStackConfig({ openWebDownloadHosts: [] })).toThrow(StackConfigError);
  });
});
