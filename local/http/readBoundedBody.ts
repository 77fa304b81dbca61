import type { IncomingMessage } from 'node:http';

/** More than any request this API accepts (the handlers refuse bodies over 16 KiB themselves). */
export const MAX_LOCAL_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * The request's body, or `'tooLarge'` as soon as it is known to exceed `maxBytes`
 * (from Content-Length, or while reading), so an oversized body is never buffered.
 * The caller answers 413 and closes the connection.
 */
export function readBoundedBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | 'tooLarge'> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve('tooLarge');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        stopReading();
        resolve('tooLarge');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stopReading();
      resolve(Buffer.concat(chunks));
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
