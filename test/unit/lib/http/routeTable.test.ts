import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HandlerNames, handlerEntryPath, ROUTES, routeKey } from '../../../../lib/http/routeTable';
import { LOCAL_PROJECT_ROOT } from '../../../../local/projectRoot';

describe('the route table', () => {
  it('names each route once, as METHOD /path', () => {
    // Act
    const keys = ROUTES.map(routeKey);

    // Assess
    expect(keys).toContain('GET /exports/{exportId}');
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('points every handler, routed or not, at an entry file that exists', () => {
    // Act
    const missing = Object.values(HandlerNames)
      .map(handlerEntryPath)
      .filter((path) => !existsSync(join(LOCAL_PROJECT_ROOT, path)));

    // Assess
    expect(handlerEntryPath(HandlerNames.START)).toBe('functions/start.ts');
    expect(missing).toEqual([]);
  });

  it('routes every path parameter the handlers read by the names they read', () => {
    // Act
    const parameters = new Set(
      ROUTES.flatMap((route) => [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name)),
    );

    // Assess
    expect([...parameters].sort()).toEqual(['backfillId', 'erasureId', 'exportId', 'spotId']);
  });
});
