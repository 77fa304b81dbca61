/** A route in API Gateway path syntax: `{name}` is a whole-segment path parameter. */
export interface RouteShape {
  method: string;
  path: string;
  /** Patterns some parameters must match (after decoding) for the route to match. */
  parameterPatterns?: Readonly<Record<string, RegExp>>;
}

export type RouteMatch<R extends RouteShape> =
  | { kind: 'matched'; route: R; pathParameters: Record<string, string> }
  | { kind: 'methodNotAllowed'; allow: string[] }
  | { kind: 'notFound' };

const PATH_PARAMETER = /^\{([A-Za-z0-9_]+)\}$/;

/**
 * Finds the route of a request as API Gateway does: segments compared after
 * percent-decoding, parameters decoded and never empty, no trailing slash. A path
 * that some route has but not for this method is 405, with the methods it has.
 */
export function matchRoute<R extends RouteShape>(
  routes: readonly R[],
  method: string,
  rawPath: string,
): RouteMatch<R> {
  const segments = decodedSegments(rawPath);
  if (segments === undefined) return { kind: 'notFound' };
  const allow: string[] = [];
  for (const route of routes) {
    const pathParameters = matchPath(route.path, segments);
    if (pathParameters === undefined || !parametersMatch(route, pathParameters)) continue;
    if (route.method === method) return { kind: 'matched', route, pathParameters };
    if (!allow.includes(route.method)) allow.push(route.method);
  }
  return allow.length > 0 ? { kind: 'methodNotAllowed', allow } : { kind: 'notFound' };
}

/** The path's segments, each percent-decoded; undefined for a path that is not `/…` or is badly encoded. */
function decodedSegments(rawPath: string): string[] | undefined {
  if (!rawPath.startsWith('/')) return undefined;
  try {
    return rawPath.slice(1).split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

function parametersMatch(route: RouteShape, pathParameters: Record<string, string>): boolean {
  return Object.entries(route.parameterPatterns ?? {}).every(([name, pattern]) =>
    pattern.test(pathParameters[name] ?? ''),
  );
}

function matchPath(template: string, segments: readonly string[]): Record<string, string> | undefined {
  const parts = template.slice(1).split('/');
  if (parts.length !== segments.length) return undefined;
  const parameters: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index] as string;
    const name = PATH_PARAMETER.exec(part)?.[1];
    if (name === undefined) {
      if (segment !== part) return undefined;
    } else {
      if (segment === '') return undefined;
      parameters[name] = segment;
    }
  }
  return parameters;
}
