import type { APIGatewayProxyEventV2 } from 'aws-lambda';

// API Gateway hands array claims over as one string, `[a b c]`; other issuers use spaces or commas.
const LIST_SEPARATORS = /[\s,]+/;

/** The claims the HTTP API's JWT authorizer verified, or undefined when no JWT authorized the request. */
export function jwtClaimsOf(event: APIGatewayProxyEventV2): Record<string, unknown> | undefined {
  const { authorizer } = event.requestContext as { authorizer?: { jwt?: { claims?: unknown } } };
  const claims = authorizer?.jwt?.claims;
  return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
    ? (claims as Record<string, unknown>)
    : undefined;
}

/**
 * The values a claim lists, whatever its encoding: a JSON array, a JSON array as text
 * (`["a","b"]`), API Gateway's flattened array (`[a b]`), or a space- or comma-separated
 * string. Anything else lists nothing.
 */
export function claimValues(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.flatMap((item) => (typeof item === 'string' ? splitList(item) : []));
  if (typeof claim !== 'string') return [];
  const text = claim.trim();
  if (text.startsWith('[') && text.endsWith(']')) {
    const parsed = parseJsonArray(text);
    return parsed === undefined ? splitList(text.slice(1, -1)) : claimValues(parsed);
  }
  return splitList(text);
}

function splitList(text: string): string[] {
  return text.split(LIST_SEPARATORS).filter((value) => value !== '');
}

function parseJsonArray(text: string): unknown[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
