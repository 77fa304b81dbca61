import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** `from './x'`, `import './x'` and `import('./x')`: the relative imports of a source file. */
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g;

/** Every TypeScript file under `directory`, at any depth. */
export function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The files `file` imports by relative path, resolved as TypeScript does (`./x` → `x.ts` or `x/index.ts`). */
export function relativeImportsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)].map(([, specifier]) => {
    const target = resolve(dirname(file), specifier as string);
    for (const candidate of [`${target}.ts`, join(target, 'index.ts')]) {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    }
    return target;
  });
}

/**
 * The strongly connected parts of a graph with more than one node (or a node importing itself):
 * each is a set of nodes every one of which reaches every other, i.e. one or more cycles. Each is
 * sorted, and they are listed by their first node.
 */
export function cyclicGroups(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's algorithm.
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node) as number, lowLink.get(next) as number));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node) as number, index.get(next) as number));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || graph.get(node)?.has(node)) groups.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}
