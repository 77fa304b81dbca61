/**
 * Which upstream download links may be stored and shown. A link is a bearer URL handed on
 * to API callers and event consumers, so a link pointing anywhere else (a confused or
 * compromised upstream, a proxy rewriting answers) must never be passed on.
 */
import { isDownloadHostEntry } from '../settings/downloadHostEntry';
import { SETTINGS } from '../settings/settingsTable';

/** Download hosts allowed besides the export host when none are configured: OpenWeb's own domain. */
export const DEFAULT_DOWNLOAD_HOSTS: readonly string[] = SETTINGS.openWebDownloadHosts.default;

/** Far above a pre-signed URL's length; a longer "link" is not one, and records must stay small. */
export const MAX_DOWNLOAD_LINK_CHARS = 4096;

export const DownloadLinkRejection = {
  TOO_LONG: 'tooLong',
  /** Controls, whitespace, invisible format characters or a backslash (parsers disagree on those). */
  UNSAFE_CHARACTER: 'unsafeCharacter',
  /** Not an absolute URL. */
  MALFORMED: 'malformed',
  SCHEME: 'scheme',
  CREDENTIALS: 'credentials',
  HOST: 'host',
} as const;
export type DownloadLinkRejection = (typeof DownloadLinkRejection)[keyof typeof DownloadLinkRejection];

export interface DownloadLinkPolicy {
  /** `https:`, plus `http:` when the export base URL itself is plain http (local, simulator). */
  protocols: ReadonlySet<string>;
  /** Exact `host` or `host:port` entries, the export host among them. */
  hosts: ReadonlySet<string>;
  /** `.example.com` for each `*.example.com` entry; matches subdomains on the scheme's default port. */
  hostSuffixes: readonly string[];
}

// \p{Cc}: C0, DEL, C1; \p{Cf}: bidi overrides, zero-width characters; \p{Z}: every space and line separator.
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Z}\\]/u;

/**
 * The policy for an export base URL: links on its host, or on an allowed download host,
 * over https (or http when the export base URL is http). @throws RangeError for a bad entry
 */
export function downloadLinkPolicy(
  exportBaseUrl: string,
  downloadHosts: readonly string[] = DEFAULT_DOWNLOAD_HOSTS,
): DownloadLinkPolicy {
  const base = new URL(exportBaseUrl);
  const entries = downloadHosts.map((entry) => entry.trim().toLowerCase());
  const invalid = entries.filter((entry) => !isDownloadHostEntry(entry));
  if (invalid.length > 0) throw new RangeError(`downloadHosts has invalid entries: ${invalid.join(', ')}`);
  return {
    protocols: new Set(base.protocol === 'http:' ? ['https:', 'http:'] : ['https:']),
    hosts: new Set([base.host, ...entries.filter((entry) => !entry.startsWith('*.'))]),
    hostSuffixes: entries.filter((entry) => entry.startsWith('*.')).map((entry) => entry.slice(1)),
  };
}

/** Why `link` may not be passed on, or undefined when it may. */
export function checkDownloadLink(
  link: string,
  policy: DownloadLinkPolicy,
): DownloadLinkRejection | undefined {
  if (link.length > MAX_DOWNLOAD_LINK_CHARS) return DownloadLinkRejection.TOO_LONG;
  if (UNSAFE_CHARACTER.test(link)) return DownloadLinkRejection.UNSAFE_CHARACTER;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return DownloadLinkRejection.MALFORMED;
  }
  if (!policy.protocols.has(url.protocol)) return DownloadLinkRejection.SCHEME;
  if (url.username !== '' || url.password !== '') return DownloadLinkRejection.CREDENTIALS;
  const allowedHost =
    policy.hosts.has(url.host) ||
    (url.port === '' && policy.hostSuffixes.some((suffix) => url.hostname.endsWith(suffix)));
  return allowedHost ? undefined : DownloadLinkRejection.HOST;
}

export interface ScreenedDownloadLinks {
  /** The links that may be passed on, as the upstream wrote them, in its order. */
  accepted: string[];
  /** One reason per dropped link. */
  rejected: DownloadLinkRejection[];
}

export function screenDownloadLinks(
  links: readonly string[],
  policy: DownloadLinkPolicy,
): ScreenedDownloadLinks {
  const accepted: string[] = [];
  const rejected: DownloadLinkRejection[] = [];
  for (const link of links) {
    const rejection = checkDownloadLink(link, policy);
    if (rejection === undefined) accepted.push(link);
    else rejected.push(rejection);
  }
  return { accepted, rejected };
}
