import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDownloadLink,
  DownloadLinkRejection,
  downloadLinkPolicy,
  MAX_DOWNLOAD_LINK_CHARS,
  screenDownloadLinks,
} from '../../../../lib/openweb/downloadLinkPolicy';

const EXPORT_BASE_URL = 'https://api-exporter.openweb.com';
const LOCAL_BASE_URL = 'http://127.0.0.1:4010';
/** Cases per property: cheap (no I/O), so many. */
const PROPERTY_RUNS = 5_000;

describe('download link policy', () => {
  const policy = downloadLinkPolicy(EXPORT_BASE_URL);

  it.each([
    ['the export host', 'https://api-exporter.openweb.com/files/1.csv.zip?expires=1&signature=ab'],
    ['an OpenWeb subdomain', 'https://files.openweb.com/e1/1.csv.zip'],
    ['a deeper OpenWeb subdomain', 'https://eu.files.openweb.com/e1/1.csv.zip'],
    ['a host in upper case', 'HTTPS://API-EXPORTER.OPENWEB.COM/files/1.csv.zip'],
    ['the default port written out', 'https://files.openweb.com:443/1.csv.zip'],
  ])('accepts a link on %s', (_case, link) => {
    // Act / Assess
    expect(checkDownloadLink(link, policy)).toBeUndefined();
  });

  it.each([
    ['plain http', 'http://api-exporter.openweb.com/1.csv.zip', DownloadLinkRejection.SCHEME],
    ['javascript:', 'javascript:alert(1)', DownloadLinkRejection.SCHEME],
    ['data:', 'data:text/html;base64,PHNjcmlwdD4=', DownloadLinkRejection.SCHEME],
    ['file:', 'file:///etc/passwd', DownloadLinkRejection.SCHEME],
    ['ftp:', 'ftp://files.openweb.com/1.csv.zip', DownloadLinkRejection.SCHEME],
    ['another host', 'https://evil.example.com/1.csv.zip', DownloadLinkRejection.HOST],
    ['the bare OpenWeb domain', 'https://openweb.com/1.csv.zip', DownloadLinkRejection.HOST],
    ['a look-alike suffix', 'https://api-exporter.openweb.com.evil.com/1', DownloadLinkRejection.HOST],
    ['a look-alike name', 'https://evilopenweb.com/1', DownloadLinkRejection.HOST],
    ['a homograph (Cyrillic e)', 'https://api-exporter.openw\u0435b.com/1', DownloadLinkRejection.HOST],
    ['a trailing-dot host', 'https://files.openweb.com./1', DownloadLinkRejection.HOST],
    [
      'another port on the export host',
      'https://api-exporter.openweb.com:8443/1',
      DownloadLinkRejection.HOST,
    ],
    ['another port on a subdomain', 'https://files.openweb.com:8443/1', DownloadLinkRejection.HOST],
    ['an IP address', 'https://169.254.169.254/latest/meta-data', DownloadLinkRejection.HOST],
    ['user and password', 'https://u:p@api-exporter.openweb.com/1', DownloadLinkRejection.CREDENTIALS],
    ['a user name', 'https://evil.com@api-exporter.openweb.com/1', DownloadLinkRejection.CREDENTIALS],
    [
      'a backslash before @',
      'https://api-exporter.openweb.com\\@evil.com/',
      DownloadLinkRejection.UNSAFE_CHARACTER,
    ],
    [
      'a backslash after the host',
      'https://evil.com\\@files.openweb.com/',
      DownloadLinkRejection.UNSAFE_CHARACTER,
    ],
    ['a line break', 'https://files.openweb.com/1\n.csv.zip', DownloadLinkRejection.UNSAFE_CHARACTER],
    ['a tab', 'https://files.openweb.com/\t1.csv.zip', DownloadLinkRejection.UNSAFE_CHARACTER],
    ['a NUL', 'https://files.openweb.com/1\u0000.csv.zip', DownloadLinkRejection.UNSAFE_CHARACTER],
    ['a C1 control', 'https://files.openweb.com/1\u0085.csv.zip', DownloadLinkRejection.UNSAFE_CHARACTER],
    ['a bidi override', 'https://files.openweb.com/\u202epiz.vsc', DownloadLinkRejection.UNSAFE_CHARACTER],
    ['a zero-width space', 'https://files.openweb\u200b.com/1', DownloadLinkRejection.UNSAFE_CHARACTER],
    ['a space', 'https://files.openweb.com/1 .csv.zip', DownloadLinkRejection.UNSAFE_CHARACTER],
    ['a path without host', '/files/1.csv.zip', DownloadLinkRejection.MALFORMED],
    ['a protocol-relative link', '//files.openweb.com/1.csv.zip', DownloadLinkRejection.MALFORMED],
    ['no URL at all', 'download-me', DownloadLinkRejection.MALFORMED],
    [
      'an overlong link',
      `https://files.openweb.com/${'a'.repeat(MAX_DOWNLOAD_LINK_CHARS)}`,
      DownloadLinkRejection.TOO_LONG,
    ],
  ])('refuses %s', (_case, link, reason) => {
    // Act / Assess
    expect(checkDownloadLink(link, policy)).toBe(reason);
  });

  it('allows plain http, on the export host, only when the export base URL is http (local mode)', () => {
    // Prepare
    const local = downloadLinkPolicy(LOCAL_BASE_URL);

    // Act / Assess
    expect(checkDownloadLink(`${LOCAL_BASE_URL}/files/e1/1.csv.zip?signature=x`, local)).toBeUndefined();
    expect(checkDownloadLink('https://127.0.0.1:4010/files/e1/1.csv.zip', local)).toBeUndefined();
    expect(checkDownloadLink('http://127.0.0.1:4011/files/e1/1.csv.zip', local)).toBe(
      DownloadLinkRejection.HOST,
    );
    expect(checkDownloadLink('http://localhost:4010/files/e1/1.csv.zip', local)).toBe(
      DownloadLinkRejection.HOST,
    );
  });

  it('replaces the default OpenWeb domain with the configured hosts; the export host stays allowed', () => {
    // Prepare
    const configured = downloadLinkPolicy(EXPORT_BASE_URL, ['downloads.example.net', '*.cdn.example.org']);

    // Act / Assess
    expect(checkDownloadLink('https://downloads.example.net/1.csv.zip', configured)).toBeUndefined();
    expect(checkDownloadLink('https://eu.cdn.example.org/1.csv.zip', configured)).toBeUndefined();
    expect(checkDownloadLink('https://api-exporter.openweb.com/1.csv.zip', configured)).toBeUndefined();
    expect(checkDownloadLink('https://files.openweb.com/1.csv.zip', configured)).toBe(
      DownloadLinkRejection.HOST,
    );
    expect(checkDownloadLink('https://cdn.example.org/1.csv.zip', configured)).toBe(
      DownloadLinkRejection.HOST,
    );
  });

  it('screens a list: keeps the accepted links in order and counts the rest with their reasons', () => {
    // Act
    const screened = screenDownloadLinks(
      [
        'https://files.openweb.com/1.csv.zip',
        'https://evil.example.com/2.csv.zip',
        'https://api-exporter.openweb.com/3.csv.zip',
        'javascript:alert(1)',
      ],
      policy,
    );

    // Assess
    expect(screened).toEqual({
      accepted: ['https://files.openweb.com/1.csv.zip', 'https://api-exporter.openweb.com/3.csv.zip'],
      rejected: [DownloadLinkRejection.HOST, DownloadLinkRejection.SCHEME],
    });
  });

  it('never accepts a link that is not https, on an allowed host, without credentials or unsafe characters', () => {
    // Prepare
    const hosts = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('api-exporter.openweb.com', 'files.openweb.com') },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'openweb.com',
          'evil.com',
          'openweb.com.evil.com',
          '127.0.0.1',
          'api-exporter.openweb.com:8443',
        ),
      },
    );
    const schemes = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('https://', 'HTTPS://') },
      { weight: 3, arbitrary: fc.constantFrom('http://', 'javascript:', 'https:/', '//', '') },
    );
    const userInfo = fc.oneof(
      { weight: 4, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.constantFrom('user@', 'u:p@', 'evil.com@', 'a\\@') },
    );
    const junk = fc.oneof(
      { weight: 2, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
    );
    const links = fc
      .tuple(schemes, userInfo, hosts, fc.webPath(), junk, fc.nat({ max: 40 }))
      .map(([scheme, user, host, path, extra, at]) => {
        const link = `${scheme}${user}${host}${path}`;
        const cut = Math.min(at, link.length);
        return `${link.slice(0, cut)}${extra}${link.slice(cut)}`;
      });
    let accepted = 0;

    // Act / Assess
    fc.assert(
      fc.property(links, (link) => {
        if (checkDownloadLink(link, policy) !== undefined) return;
        accepted += 1;
        const url = new URL(link);
        expect(url.protocol).toBe('https:');
        expect([url.username, url.password]).toEqual(['', '']);
        expect(url.host === 'api-exporter.openweb.com' || /^[a-z0-9.-]+\.openweb\.com$/.test(url.host)).toBe(
          true,
        );
        expect(link).not.toMatch(/[\p{Cc}\p{Cf}\p{Z}\\]/u);
      }),
      { numRuns: PROPERTY_RUNS },
    );
    // The generator also produces acceptable links, so the checks above did run.
    expect(accepted).toBeGreaterThan(PROPERTY_RUNS / 20);
  });
});
