import { DEFAULT_LOCAL_API_URL } from '../lib/settings/localRuntimeLayout';
import { CliUsageError } from './errors';

// `<api-id>.execute-api.<region>.amazonaws.com` (or `.com.cn`): API Gateway's own host names.
const EXECUTE_API_HOST = /^[a-z0-9]+\.execute-api\.([a-z]{2}(?:-[a-z]+)+-\d+)\.amazonaws\.com(?:\.cn)?$/;

/** Where the API is and whether requests to it are signed. */
export interface ApiEndpoint {
  url: URL;
  /** Present when requests are signed with SigV4. */
  sigV4?: { region: string };
}

export interface ApiEndpointOptions {
  api?: string;
  sigv4?: boolean;
  region?: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The API from `--api`, `$OPENWEB_EXPORTS_API` or the local runtime's address. Requests to an
 * `execute-api` host are always signed (its routes use IAM authorization); `--sigv4` signs others
 * too, e.g. a custom domain in front of the API.
 */
export function resolveApiEndpoint(options: ApiEndpointOptions): ApiEndpoint {
  const text = options.api ?? nonEmpty(options.env.OPENWEB_EXPORTS_API) ?? DEFAULT_LOCAL_API_URL;
  const url = parseApiUrl(text);
  const hostRegion = executeApiRegion(url.hostname);
  if (hostRegion === undefined && !options.sigv4) return { url };
  const region =
    hostRegion ??
    nonEmpty(options.region) ??
    nonEmpty(options.env.AWS_REGION) ??
    nonEmpty(options.env.AWS_DEFAULT_REGION);
  if (region === undefined) {
    throw new CliUsageError(`--sigv4 needs a region: pass --region or set AWS_REGION (API ${url.origin})`);
  }
  return { url, sigV4: { region } };
}

/** The region named by an API Gateway host, `undefined` for any other host. */
export function executeApiRegion(hostname: string): string | undefined {
  return EXECUTE_API_HOST.exec(hostname.toLowerCase())?.[1];
}

function parseApiUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliUsageError(`the API URL '${text}' is not a URL (expected e.g. ${DEFAULT_LOCAL_API_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliUsageError(`the API URL '${text}' must be http or https`);
  }
  // Echoing the URL back could print a password, so this message does not.
  if (url.username || url.password) throw new CliUsageError('the API URL must not carry user info');
  if (url.search || url.hash) {
    throw new CliUsageError(`the API URL '${text}' must not carry a query or fragment`);
  }
  return url;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
