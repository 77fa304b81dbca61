import { readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import { relativeImportsOf, sourceFiles } from '../../support/importGraph';

const LIB = join(LOCAL_PROJECT_ROOT, 'lib');

const EXPORTS = join(LIB, 'exports');

/** The top folder a path is in under `root` (`exports`, `store`, …), or undefined for `root` itself. */
function folderOf(path: string, root: string = LIB): string | undefined {
  const parts = relative(root, path).split(sep);
  return parts.length > 1 && !parts[0]?.startsWith('..') ? parts[0] : undefined;
}

/** Which folder under `root` (lib/ or the domain, lib/exports/) imports which other folder. */
function folderGraph(root: string = LIB): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const from = folderOf(file, root);
    for (const target of relativeImportsOf(file)) {
      if (!target.startsWith(root)) continue;
      const to = folderOf(target, root);
      if (from === undefined || to === undefined || from === to) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Every folder cycle, as the path that closes it (`a -> b -> c -> a`), whatever its length. */
function cyclesOf(graph: Map<string, Set<string>>): string[] {
  const cycles: string[] = [];
  const visit = (folder: string, path: string[]): void => {
    for (const next of graph.get(folder) ?? []) {
      const at = path.indexOf(next);
      // Each cycle once: reported from its alphabetically first folder.
      if (at === 0) cycles.push([...path, next].join(' -> '));
      else if (at < 0 && next > (path[0] as string)) visit(next, [...path, next]);
    }
  };
  for (const folder of [...graph.keys()].sort()) visit(folder, [folder]);
  return cycles;
}

describe('lib/ folders', () => {
  it('import each other in one direction only: the domain owns its ports, adapters import the domain', () => {
    // Act
    const graph = folderGraph();

    // Assess
    expect(graph.get('store')?.has('exports')).toBe(true);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('leave the domain importing no adapter: only the shared error vocabulary and its settings', () => {
    // Act
    const imported = [...(folderGraph().get('exports') ?? [])];

    // Assess
    expect(imported.sort()).toEqual(['errors', 'settings']);
  });

  it('leave the settings table importing no other folder, so every folder may read its settings', () => {
    // Act
    const imported = [...(folderGraph().get('settings') ?? [])];

    // Assess
    expect(imported).toEqual([]);
  });

  it('hold the domain as one folder per concept, which import each other in one direction only', () => {
    // Act
    const graph = folderGraph(EXPORTS);

    // Assess: the concepts are there, and a higher one (lifecycle) builds on a lower one (record)
    expect([...new Set([...graph.keys(), ...[...graph.values()].flatMap((to) => [...to])])].sort()).toEqual([
      'backfill',
      'cost',
      'coverage',
      'erasure',
      'fleet',
      'lifecycle',
      'queue',
      'reconciler',
      'record',
      'requests',
      'restatement',
      'time',
      'upstream',
      'workflow',
    ]);
    expect(graph.get('lifecycle')?.has('record')).toBe(true);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it("keep the domain's files in its concept folders, nothing imported from the domain's top", () => {
    // Prepare: the one file at the top is the widest dependency type, which only adapters and wiring read
    const topFiles = readdirSync(EXPORTS, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    const importersOfTop = sourceFiles(EXPORTS).filter((file) =>
      relativeImportsOf(file).some((target) => dirname(target) === EXPORTS),
    );

    // Assess
    expect(topFiles).toEqual(['ExportDependencies.ts']);
    expect(importersOfTop.map((file) => relative(LIB, file))).toEqual([]);
  });

  it('find a cycle through three folders as well as through two', () => {
    // Prepare
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['e'])],
      ['e', new Set(['d'])],
      ['f', new Set(['a'])],
    ]);

    // Act / Assess
    expect(cyclesOf(graph)).toEqual(['a -> b -> c -> a', 'd -> e -> d']);
  });
});
