import type { SimulatorEndpoint } from './SimulatorEndpoint';

export const CONTROL_PATH_PREFIX = '/__simulator/';

export type RouteMatch =
  | { kind: 'upstream'; endpoint: SimulatorEndpoint; params: Record<string, string> }
  | { kind: 'control' }
  | { kind: 'methodNotAllowed'; allowedMethod: string }
  | { kind: 'notFound' };

interface UpstreamRoute {
  method: string;
  pattern: RegExp;
  endpoint: SimulatorEndpoint;
}

// Paths as the upstream serves them; download links mimic pre-signed storage URLs.
const UPSTREAM_ROUTES: readonly UpstreamRoute[] = [
  { method: 'POST', pattern: /^\/v1\/publisher\/auth$/, endpoint: 'auth' },
  { method: 'POST', pattern: /^\/v4\/export$/, endpoint: 'create' },
  { method: 'GET', pattern: /^\/v4\/export\/status$/, endpoint: 'status' },
  { method: 'GET', pattern: /^\/v4\/export\/abort$/, endpoint: 'abort' },
  { method: 'GET', pattern: /^\/v4\/export\/list$/, endpoint: 'list' },
  {
    method: 'GET',
    pattern: /^\/files\/(?<exportId>[^/]+)\/(?<fileNumber>[1-9]\d*)\.csv\.zip$/,
    endpoint: 'download',
  },
];

export function matchRoute(method: string, pathname: string): RouteMatch {
  if (pathname.startsWith(CONTROL_PATH_PREFIX)) {
    return { kind: 'control' };
  }
  for (const route of UPSTREAM_ROUTES) {
    const match = route.pattern.exec(pathname);
    if (!match) {
      continue;
    }
    if (route.method !== method) {
      return { kind: 'methodNotAllowed', allowedMethod: route.method };
    }
    return { kind: 'upstream', endpoint: route.endpoint, params: { ...match.groups } };
  }
  return { kind: 'notFound' };
}
