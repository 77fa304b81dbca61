import { TrinoSQL } from 'dt-sql-parser/dist/parser/trino';

let parser: TrinoSQL | undefined;

/**
 * What Trino's grammar (Athena engine 3 is Trino) says of `sql`: each syntax error as
 * `<line>:<column> <message>`; none when it parses. Syntax only: names and types are not checked.
 */
export function trinoSyntaxErrors(sql: string): string[] {
  parser ??= new TrinoSQL();
  return parser.validate(sql).map((error) => `${error.startLine}:${error.startColumn} ${error.message}`);
}
