import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXPORT_FUNCTIONS } from '../../../functions/registry';
import { HandlerNames, ROUTES, routeKey } from '../../../lib/http/routeTable';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';

describe('the function registry', () => {
  it('lists every handler once, each with its own entry file', () => {
    // Act
    const names = EXPORT_FUNCTIONS.map((fn) => fn.name);
    const entries = EXPORT_FUNCTIONS.map((fn) => fn.entry);

    // Assess
    expect(names).toEqual(Object.values(HandlerNames));
    expect(new Set(entries).size).toBe(entries.length);
    for (const entry of entries) expect(existsSync(join(LOCAL_PROJECT_ROOT, entry)), entry).toBe(true);
  });

  it("loads each handler's maker from the function's own entry file, beside the handler Lambda runs", async () => {
    for (const fn of EXPORT_FUNCTIONS) {
      // Act
      const maker = await fn.handler.load();
      const entry = (await import(pathToFileURL(join(LOCAL_PROJECT_ROOT, fn.entry)).href)) as Record<
        string,
        unknown
      >;

      // Assess
      expect(Object.values(entry), fn.name).toContain(maker);
      expect(typeof entry.handler, fn.name).toBe('function');
    }
  });

  it('gives every route of the route table to exactly one function, and routes to no function of the workflow or a schedule', () => {
    // Act
    const routed = EXPORT_FUNCTIONS.flatMap((fn) => fn.routes.map(routeKey));
    const unrouted = EXPORT_FUNCTIONS.filter((fn) => fn.routes.length === 0).map((fn) => fn.name);

    // Assess
    expect(routed.sort()).toEqual(ROUTES.map(routeKey).sort());
    expect(unrouted).toEqual([
      HandlerNames.WORKFLOW_TASK,
      HandlerNames.ARCHIVE,
      HandlerNames.RECONCILE,
      HandlerNames.ERASURE_TASK,
    ]);
  });

  it('lets a function query an index only through Query', () => {
    // Act
    const indexedWithoutQuery = EXPORT_FUNCTIONS.filter(
      (fn) => (fn.access.indexes ?? []).length > 0 && !fn.access.table.includes('Query'),
    ).map((fn) => fn.name);

    // Assess
    expect(indexedWithoutQuery).toEqual([]);
  });
});
