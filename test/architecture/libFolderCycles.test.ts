import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';

const LIB = join(LOCAL_PROJECT_ROOT, 'lib');
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The top folder of lib/ a path is in (`exports`, `store`, …), or undefined for lib/ itself. */
function folderOf(path: string): string | undefined {
  const parts = relative(LIB, path).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** Which folder of lib/ imports which other folder. */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(LIB)) {
    const from = folderOf(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), specifier as string);
      if (!target.startsWith(LIB)) continue;
      const isDirectory = statSync(target, { throwIfNoEntry: false })?.isDirectory() ?? false;
      const to = folderOf(isDirectory ? join(target, 'index.ts') : target);
      if (from === undefined || to === undefined || from === to) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

describe('lib/ folders', () => {
  it('import each other in one direction only: the domain owns its ports, adapters import the domain', () => {
    // Act
    const graph = folderGraph();
    const cycles = [...graph].flatMap(([from, targets]) =>
      [...targets].filter((to) => from < to && graph.get(to)?.has(from)).map((to) => `${from} <-> ${to}`),
    );

    // Assess
    expect(graph.get('store')?.has('exports')).toBe(true);
    expect(cycles).toEqual([]);
  });
});
