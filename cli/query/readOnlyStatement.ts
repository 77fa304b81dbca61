import { QueryFailedError, QueryRefusedError } from '../errors';

/** The words a question may start with: each reads and writes nothing (`(` is a parenthesized SELECT). */
const QUERY_STARTS = ['SELECT', 'WITH', 'FROM', 'VALUES', 'TABLE', '('] as const;
/** Statements about the tables that read only: DuckDB's and Athena's. */
const INSPECTION_STARTS = ['DESCRIBE', 'SHOW', 'SUMMARIZE'] as const;
const EXPLAIN = 'EXPLAIN';
/** Words that may follow EXPLAIN before the statement it explains. */
const EXPLAIN_MODIFIERS = new Set(['ANALYZE', 'VERBOSE']);

/** What a query here may be, for messages and `--help`. */
export const READ_ONLY_STATEMENTS =
  'SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE, or EXPLAIN of a query';

/** Why a statement that starts with a word is refused, for the words a user would try. */
const REFUSAL_REASONS: Record<string, string> = {
  COPY: 'writes files',
  EXPORT: 'writes files',
  ATTACH: 'opens or creates a database file',
  DETACH: 'detaches a database',
  USE: 'switches databases',
  INSTALL: 'installs extensions',
  LOAD: 'loads extensions',
  FORCE: 'installs extensions',
  UPDATE: 'changes data',
  INSERT: 'changes data',
  DELETE: 'changes data',
  MERGE: 'changes data',
  TRUNCATE: 'changes data',
  CREATE: 'defines tables, views or functions',
  DROP: "drops the archive's tables or views",
  ALTER: 'changes tables or views',
  COMMENT: 'changes tables or views',
  SET: "changes the engine's settings",
  RESET: "changes the engine's settings",
  PRAGMA: "runs the engine's pragmas",
  CALL: 'calls procedures',
  PIVOT: 'may define types first (PIVOT inside a SELECT reads only)',
  UNPIVOT: 'may define types first (UNPIVOT inside a SELECT reads only)',
};

interface Token {
  word: string;
  /** Where the token starts in the text. */
  start: number;
  /** Just after it. */
  end: number;
}

/**
 * Refuses, before any engine sees it, a statement that is not a question about the archive:
 * only {@link READ_ONLY_STATEMENTS} run. It is the first lock, not the only one: DuckDB also
 * reads no file outside the archive and changes no setting; Athena's workgroup and IAM apply.
 * @throws QueryRefusedError naming the statement's first word and why it is refused
 */
export function assertReadOnlyStatement(sql: string, engine: string): void {
  const first = nextToken(sql, 0);
  if (first === undefined) throw new QueryFailedError(engine, 'no statement to run');
  if (isQueryStart(first.word) || (INSPECTION_STARTS as readonly string[]).includes(first.word)) return;
  if (first.word !== EXPLAIN) throw refusal(engine, first.word);
  let explained = nextToken(sql, first.end);
  while (explained !== undefined && EXPLAIN_MODIFIERS.has(explained.word)) {
    explained = nextToken(sql, explained.end);
  }
  // EXPLAIN (FORMAT json) … / EXPLAIN (TYPE DISTRIBUTED) …: options, unless the parenthesis is the query.
  if (explained?.word === '(' && !isQueryStart(nextToken(sql, explained.end)?.word ?? '')) {
    explained = nextToken(sql, closingParenthesis(sql, explained.start));
  }
  if (explained === undefined) throw new QueryFailedError(engine, 'EXPLAIN of nothing: explain a query');
  // EXPLAIN ANALYZE runs what it explains, so what it explains must be a query too.
  if (!isQueryStart(explained.word)) throw refusal(engine, `${EXPLAIN} ${explained.word}`, explained.word);
}

function isQueryStart(word: string): boolean {
  return (QUERY_STARTS as readonly string[]).includes(word);
}

function refusal(engine: string, statement: string, word: string = statement): QueryRefusedError {
  const reason = REFUSAL_REASONS[word] ?? 'is not a read-only statement';
  return new QueryRefusedError(
    engine,
    `${statement} ${reason}: a query here only reads the archive (${READ_ONLY_STATEMENTS})`,
  );
}

/** The next word (upper-cased) or punctuation character from `from`, past spaces and comments. */
function nextToken(sql: string, from: number): Token | undefined {
  let index = from;
  while (index < sql.length) {
    const rest = sql.slice(index);
    const space = /^\s+/.exec(rest);
    if (space) {
      index += space[0].length;
      continue;
    }
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', index);
      index = end < 0 ? sql.length : end + 1;
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', index + 2);
      index = end < 0 ? sql.length : end + 2;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (word) return { word: word[0].toUpperCase(), start: index, end: index + word[0].length };
    return { word: rest.charAt(0), start: index, end: index + 1 };
  }
  return undefined;
}

/** Just after the parenthesis that closes the one at `open` (the end of the text if none does). */
function closingParenthesis(sql: string, open: number): number {
  let depth = 0;
  for (let index = open; index < sql.length; index += 1) {
    if (sql[index] === '(') depth += 1;
    if (sql[index] === ')' && --depth === 0) return index + 1;
  }
  return sql.length;
}
