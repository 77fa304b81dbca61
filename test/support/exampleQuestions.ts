import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_PROJECT_ROOT } from '../../local/projectRoot';

export const ARCHIVE_DOC = join(LOCAL_PROJECT_ROOT, 'docs', 'archive.md');
const EXAMPLES_HEADING = '## Example questions';

export interface ExampleQuestion {
  title: string;
  sql: string;
}

/** The SQL blocks of a section of docs/archive.md, each titled by the `###` heading above it. */
export function exampleQuestions(markdown: string = readFileSync(ARCHIVE_DOC, 'utf8')): ExampleQuestion[] {
  const start = markdown.indexOf(EXAMPLES_HEADING);
  if (start < 0) throw new Error(`docs/archive.md has no "${EXAMPLES_HEADING}" section`);
  const rest = markdown.slice(start + EXAMPLES_HEADING.length);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^### (.+)\n[\s\S]*?```sql\n([\s\S]*?)```/gm)].map((match) => ({
    title: (match[1] as string).trim(),
    sql: (match[2] as string).trim(),
  }));
}

/** Every ```sql block of the markdown, in order. */
export function sqlBlocks(markdown: string = readFileSync(ARCHIVE_DOC, 'utf8')): string[] {
  return [...markdown.matchAll(/^( *)```sql\n([\s\S]*?)^\1```/gm)].map((match) =>
    (match[2] as string)
      .split('\n')
      .map((line) => line.slice((match[1] as string).length))
      .join('\n')
      .trim(),
  );
}
