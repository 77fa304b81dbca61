import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export const JSON_CONTENT_TYPE = 'application/json';

export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { 'content-type': JSON_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}
