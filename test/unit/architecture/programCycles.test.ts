import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import { cyclicGroups, relativeImportsOf, sourceFiles } from '../../support/importGraph';

/** The programs beside lib/: each may import lib/ (and local/ infra/ and functions/), never in a circle. */
const PROGRAMS = ['cli', 'infra', 'local'] as const;

const projectPath = (file: string) => relative(LOCAL_PROJECT_ROOT, file).split(sep).join('/');

/** Which file of `folder` imports which other file of the same folder (paths from the project root). */
function fileGraph(folder: string): Map<string, Set<string>> {
  const root = join(LOCAL_PROJECT_ROOT, folder);
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const imported = relativeImportsOf(file).filter((target) => target.startsWith(root + sep));
    graph.set(projectPath(file), new Set(imported.map(projectPath)));
  }
  return graph;
}

/** `cli/x.ts -> local/y.ts` for each import of one of the folders from the other. */
function importsBetween(a: string, b: string): string[] {
  const imports: string[] = [];
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const target = join(LOCAL_PROJECT_ROOT, to) + sep;
    for (const file of sourceFiles(join(LOCAL_PROJECT_ROOT, from))) {
      for (const imported of relativeImportsOf(file).filter((path) => path.startsWith(target)))
        imports.push(`${projectPath(file)} -> ${projectPath(imported)}`);
    }
  }
  return imports.sort();
}

describe('cli/, infra/ and local/', () => {
  it.each(PROGRAMS)('%s/ has no import cycle between its files', (folder) => {
    // Act
    const graph = fileGraph(folder);

    // Assess
    expect(graph.size).toBeGreaterThan(10);
    expect(cyclicGroups(graph)).toEqual([]);
  });

  it('cli/ and local/ never import each other: what they share lives in a module neither owns', () => {
    // Act / Assess
    expect(importsBetween('cli', 'local')).toEqual([]);
  });

  it('find a cycle of files through three files as well as two, and a file importing itself', () => {
    // Prepare
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set<string>()],
      ['e', new Set(['f'])],
      ['f', new Set(['e'])],
      ['g', new Set(['g'])],
      ['h', new Set(['a'])],
    ]);

    // Act / Assess
    expect(cyclicGroups(graph)).toEqual([['a', 'b', 'c'], ['e', 'f'], ['g']]);
  });
});
