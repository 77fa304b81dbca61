import type { IncomingMessage } from 'node:http';

/** Bodies past this size are answered 413. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * Reads the whole body, or reports it too large. A too-large body is still drained (not kept)
 * so the 413 reaches a client that is still sending, on a connection that stays usable.
 */
export async function readRequestBody(
  request: IncomingMessage,
  maxBytes = MAX_REQUEST_BODY_BYTES,
): Promise<Buffer | 'tooLarge'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size <= maxBytes) {
      chunks.push(buffer);
    }
  }
  return size > maxBytes ? 'tooLarge' : Buffer.concat(chunks);
}
