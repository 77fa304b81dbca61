import { InvalidPaginationTokenError } from '../exports/record/errors';
import { ExportTableAttribute } from './tableDefinition';

export type PaginationKey = Record<string, string>;

export interface PaginationKeyShape {
  /** Exactly these attributes, all strings. */
  attributeNames: readonly string[];
  /** Attributes whose value must match, so a token cannot move a listing to another spot or status. */
  fixedValues: PaginationKey;
  /** Required prefix per attribute. */
  prefixes?: PaginationKey;
}

const MAX_TOKEN_LENGTH = 2048;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Opaque to callers: base64url of the next page's start key. */
export function encodePaginationToken(key: PaginationKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** @throws InvalidPaginationTokenError for anything that is not a token of this very listing. */
export function decodePaginationToken(token: string, shape: PaginationKeyShape): PaginationKey {
  if (token.length > MAX_TOKEN_LENGTH || !BASE64URL_PATTERN.test(token)) {
    throw new InvalidPaginationTokenError();
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (error) {
    throw new InvalidPaginationTokenError({ cause: error });
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    throw new InvalidPaginationTokenError();
  }
  const entries = Object.entries(decoded);
  const names = new Set(shape.attributeNames);
  const wellFormed =
    entries.length === names.size &&
    entries.every(([name, value]) => names.has(name) && typeof value === 'string') &&
    Object.entries(shape.fixedValues).every(([name, value]) => (decoded as PaginationKey)[name] === value) &&
    Object.entries(shape.prefixes ?? {}).every(([name, prefix]) =>
      (decoded as PaginationKey)[name]?.startsWith(prefix),
    );
  if (!wellFormed) throw new InvalidPaginationTokenError();
  return decoded as PaginationKey;
}

/**
 * `{ nextToken }` for a page of the table's own keys that stopped at `lastKey` (DynamoDB's
 * LastEvaluatedKey, of a query on the table, not an index); `{}` on the last page.
 */
export function nextTableKeyToken(lastKey: Record<string, unknown> | undefined): { nextToken?: string } {
  if (lastKey === undefined) return {};
  return {
    nextToken: encodePaginationToken({
      [ExportTableAttribute.partitionKey]: String(lastKey[ExportTableAttribute.partitionKey]),
      [ExportTableAttribute.sortKey]: String(lastKey[ExportTableAttribute.sortKey]),
    }),
  };
}
