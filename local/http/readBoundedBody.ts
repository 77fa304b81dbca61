import type { IncomingMessage } from 'node:http';

/**
 * The simulator's cap on a request body, as a web server in front of OpenWeb would have one (the
 * local API takes the handlers' own limit, MAX_REQUEST_BODY_BYTES).
 */
export const MAX_LOCAL_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * What happens to the rest of a body over the limit: `stop` reading it (the caller answers and
 * closes the connection), or `drain` it without keeping it, so the answer reaches a client that
 * is still sending, on a connection that stays usable.
 */
export type OversizedBodyHandling = 'stop' | 'drain';

/**
 * The request's body, or `'tooLarge'` when it exceeds `maxBytes` (known from Content-Length,
 * or while reading); an oversized body is never buffered. With `stop`, the answer comes as soon
 * as the body is known to be too large; with `drain`, once the client has sent all of it.
 */
export function readBoundedBody(
  request: IncomingMessage,
  maxBytes: number,
  oversized: OversizedBodyHandling = 'stop',
): Promise<Buffer | 'tooLarge'> {
  const declared = Number(request.headers['content-length']);
  let tooLarge = Number.isFinite(declared) && declared > maxBytes;
  if (tooLarge && oversized === 'stop') return Promise.resolve('tooLarge');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      tooLarge ||= received > maxBytes;
      if (!tooLarge) {
        chunks.push(chunk);
      } else if (oversized === 'stop') {
        stopReading();
        resolve('tooLarge');
      }
    };
    const onEnd = () => {
      stopReading();
      resolve(tooLarge ? 'tooLarge' : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stopReading();
      reject(error);
    };
    const stopReading = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.pause();
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}
