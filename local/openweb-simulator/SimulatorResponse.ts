/** An answer computed before anything is written, so faults can still replace or drop it. */
export interface SimulatorResponse {
  status: number;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): SimulatorResponse {
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers }, body: JSON.stringify(body) };
}

export function errorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): SimulatorResponse {
  return jsonResponse(status, { message }, headers);
}

export function emptyResponse(status: number, headers: Record<string, string> = {}): SimulatorResponse {
  return { status, headers };
}

/** The first half of the real answer, sent as a 200: neither valid JSON nor a readable zip. */
export function truncatedResponse(response: SimulatorResponse): SimulatorResponse {
  const body = response.body ?? '';
  const truncated = body.length >= 2 ? body.slice(0, Math.floor(body.length / 2)) : '{';
  return {
    status: 200,
    headers: { 'content-type': response.headers['content-type'] ?? JSON_CONTENT_TYPE },
    body: truncated,
  };
}
