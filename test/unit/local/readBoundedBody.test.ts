import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type OversizedBodyHandling, readBoundedBody } from '../../../local/http/readBoundedBody';

const MAX_BYTES = 10;
/** Long enough for an answer that does not wait for the rest of the body to arrive. */
const EARLY_ANSWER_WAIT_MS = 150;

describe('readBoundedBody', () => {
  let server: Server | undefined;
  let socket: Socket | undefined;

  afterEach(async () => {
    socket?.destroy();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  /** A raw connection to a server answering `tooLarge` or `got <n>` for each request body. */
  async function connectTo(
    oversized: OversizedBodyHandling,
  ): Promise<{ write: (text: string) => void; received: () => string }> {
    server = createServer((request, response) => {
      void readBoundedBody(request, MAX_BYTES, oversized).then((body) => {
        response.end(body === 'tooLarge' ? 'tooLarge' : `got ${body.length}`);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket?.once('connect', resolve));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    return { write: (data) => socket?.write(data), received: () => text };
  }

  const post = (length: number) => `POST / HTTP/1.1\r\nHost: local\r\nContent-Length: ${length}\r\n\r\n`;

  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) await sleep(5);
  }

  it('reads a body within the limit', async () => {
    // Prepare
    const connection = await connectTo('stop');

    // Act
    connection.write(`${post(MAX_BYTES)}${'a'.repeat(MAX_BYTES)}`);
    await until(() => connection.received().endsWith(`got ${MAX_BYTES}`));

    // Assess
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200/);
  });

  it('stop: answers tooLarge as soon as the declared length is over the limit', async () => {
    // Prepare
    const connection = await connectTo('stop');

    // Act: only part of the body is sent.
    connection.write(`${post(2 * MAX_BYTES)}${'a'.repeat(MAX_BYTES)}`);
    await until(() => connection.received().endsWith('tooLarge'));

    // Assess
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200/);
  });

  it('drain: answers tooLarge once the whole body is read, and the connection serves the next request', async () => {
    // Prepare
    const connection = await connectTo('drain');

    // Act
    connection.write(`${post(2 * MAX_BYTES)}${'a'.repeat(MAX_BYTES)}`);
    await sleep(EARLY_ANSWER_WAIT_MS);
    const beforeTheRest = connection.received();
    connection.write('b'.repeat(MAX_BYTES));
    await until(() => connection.received().endsWith('tooLarge'));
    connection.write(`${post(3)}abc`);
    await until(() => connection.received().endsWith('got 3'));

    // Assess
    expect(beforeTheRest).toBe('');
    expect(connection.received().match(/HTTP\/1\.1 200/g)).toHaveLength(2);
  });
});
