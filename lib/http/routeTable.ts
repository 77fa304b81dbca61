/**
 * The HTTP API's routes, defined once: the CDK stack builds API Gateway routes from
 * this table and the local runtime dispatches to the same handlers with it.
 */
export const HandlerNames = {
  /** `POST /exports`, and the export schedules. */
  START: 'start',
  /** `GET /exports/{exportId}`: the API's status check. */
  CHECK_STATUS: 'check-status',
  /** `POST /exports/{exportId}/abort`. */
  ABORT: 'abort',
  /** `GET /exports`. */
  LIST: 'list',
  /** `GET /exports/{exportId}/files`: the archived files with download URLs. */
  FILES: 'files',
  /** The polling workflow's create, poll and timeout-abort tasks (no route). */
  WORKFLOW_TASK: 'workflow-task',
  /** The workflow's archive tasks (no route). */
  ARCHIVE: 'archive',
  /** The reconciler's schedule (no route). */
  RECONCILE: 'reconcile',
  /** `GET /spots/{spotId}/coverage`: the spot's hours covered, in flight, given up on. */
  COVERAGE: 'coverage',
  /** `POST` and `GET /spots/{spotId}/backfills`, `GET /spots/{spotId}/backfills/{backfillId}` and its abort. */
  BACKFILLS: 'backfills',
  /** `POST` and `GET /spots/{spotId}/erasures`, `GET /spots/{spotId}/erasures/{erasureId}`. */
  ERASURES: 'erasures',
  /** `GET /spots`: the fleet at a glance. */
  SPOTS: 'spots',
  /** The erasure workflow's task: one slice of an erasure (no route). */
  ERASURE_TASK: 'erasure-task',
} as const;

export type HandlerName = (typeof HandlerNames)[keyof typeof HandlerNames];

export interface Route {
  method: 'GET' | 'POST';
  /** API Gateway path syntax: `{name}` is a path parameter. */
  path: string;
  handler: HandlerName;
}

export const ROUTES = [
  { method: 'POST', path: '/exports', handler: HandlerNames.START },
  { method: 'GET', path: '/exports', handler: HandlerNames.LIST },
  { method: 'GET', path: '/exports/{exportId}', handler: HandlerNames.CHECK_STATUS },
  { method: 'POST', path: '/exports/{exportId}/abort', handler: HandlerNames.ABORT },
  { method: 'GET', path: '/exports/{exportId}/files', handler: HandlerNames.FILES },
  { method: 'GET', path: '/spots', handler: HandlerNames.SPOTS },
  { method: 'GET', path: '/spots/{spotId}/coverage', handler: HandlerNames.COVERAGE },
  { method: 'GET', path: '/spots/{spotId}/backfills', handler: HandlerNames.BACKFILLS },
  { method: 'POST', path: '/spots/{spotId}/backfills', handler: HandlerNames.BACKFILLS },
  { method: 'GET', path: '/spots/{spotId}/backfills/{backfillId}', handler: HandlerNames.BACKFILLS },
  { method: 'POST', path: '/spots/{spotId}/backfills/{backfillId}/abort', handler: HandlerNames.BACKFILLS },
  { method: 'GET', path: '/spots/{spotId}/erasures', handler: HandlerNames.ERASURES },
  { method: 'POST', path: '/spots/{spotId}/erasures', handler: HandlerNames.ERASURES },
  { method: 'GET', path: '/spots/{spotId}/erasures/{erasureId}', handler: HandlerNames.ERASURES },
] as const satisfies readonly Route[];

/**
 * Routes about every spot the caller may use rather than one: per-spot authorization filters
 * their answer instead of refusing the request.
 */
export const FLEET_ROUTE_KEYS: readonly string[] = ['GET /spots'];

/** `METHOD /path` of each route, e.g. `GET /exports/{exportId}`: the OpenAPI document describes each one. */
export type RouteKey = RouteKeyOf<(typeof ROUTES)[number]>;

type RouteKeyOf<R> = R extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;

export function routeKey(route: Route): string {
  return `${route.method} ${route.path}`;
}

/** Entry file of each handler, relative to the project root (`functions/<name>.ts`). */
export function handlerEntryPath(handler: HandlerName): string {
  return `functions/${handler}.ts`;
}
