import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** An API Gateway HTTP API event (payload format 2.0), as opposed to a workflow or schedule input. */
export function isApiGatewayEvent(event: unknown): event is APIGatewayProxyEventV2 {
  if (typeof event !== 'object' || event === null) return false;
  const candidate = event as { version?: unknown; requestContext?: { http?: { method?: unknown } } };
  return candidate.version === '2.0' && typeof candidate.requestContext?.http?.method === 'string';
}

/** A header's value by case-insensitive name (HTTP API lower-cases names; other callers may not). */
export function headerValue(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}
