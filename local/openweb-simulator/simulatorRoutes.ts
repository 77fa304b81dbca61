import { matchRoute as matchRouteIn } from '../http/matchRoute';
import type { SimulatorEndpoint } from './SimulatorEndpoint';

export const CONTROL_PATH_PREFIX = '/__simulator/';

export type RouteMatch =
  | { kind: 'upstream'; endpoint: SimulatorEndpoint; params: Record<string, string> }
  | { kind: 'control' }
  | { kind: 'methodNotAllowed'; allow: string[] }
  | { kind: 'notFound' };

interface UpstreamRoute {
  method: string;
  path: string;
  parameterPatterns?: Readonly<Record<string, RegExp>>;
  endpoint: SimulatorEndpoint;
}

/** A download's file name: `<file number from 1>.csv.zip`. */
export const DOWNLOAD_FILE_NAME = /^([1-9]\d*)\.csv\.zip$/;

// Paths as the upstream serves them; download links mimic pre-signed storage URLs.
const UPSTREAM_ROUTES: readonly UpstreamRoute[] = [
  { method: 'POST', path: '/v1/publisher/auth', endpoint: 'auth' },
  { method: 'POST', path: '/v4/export', endpoint: 'create' },
  { method: 'GET', path: '/v4/export/status', endpoint: 'status' },
  { method: 'GET', path: '/v4/export/abort', endpoint: 'abort' },
  { method: 'GET', path: '/v4/export/list', endpoint: 'list' },
  {
    method: 'GET',
    path: '/files/{exportId}/{fileName}',
    parameterPatterns: { fileName: DOWNLOAD_FILE_NAME },
    endpoint: 'download',
  },
];

/** The upstream call a request makes, or the control surface (which routes its own paths). */
export function matchRoute(method: string, pathname: string): RouteMatch {
  if (pathname.startsWith(CONTROL_PATH_PREFIX)) {
    return { kind: 'control' };
  }
  const match = matchRouteIn(UPSTREAM_ROUTES, method, pathname);
  return match.kind === 'matched'
    ? { kind: 'upstream', endpoint: match.route.endpoint, params: match.pathParameters }
    : match;
}
