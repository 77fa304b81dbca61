import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  classifyFetchFailure,
  REQUEST_TIMEOUT_CODE,
  RequestDelivery,
  requestTimeoutFailure,
} from '../../../../lib/openweb/transportFailure';
import { fetchFailure } from './support/fakeUpstream';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('classifyFetchFailure', () => {
  const servers: Server[] = [];

  afterEach(async () => {
    await Promise.all(
      servers.splice(0).map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
    );
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH'])(
    'counts %s as not sent',
    (code) => {
      // Act
      const failure = classifyFetchFailure(fetchFailure(code));

      // Assess
      expect(failure).toMatchObject({ delivery: RequestDelivery.NOT_SENT, code });
    },
  );

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_HEADERS_TIMEOUT', 'ETIMEDOUT'])(
    'counts %s as maybe sent',
    (code) => {
      // Act
      const failure = classifyFetchFailure(fetchFailure(code));

      // Assess
      expect(failure).toMatchObject({ delivery: RequestDelivery.MAYBE_SENT, code });
    },
  );

  it('finds the code inside an AggregateError cause', () => {
    // Prepare
    const refused = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    const error = new TypeError('fetch failed', { cause: new AggregateError([refused]) });

    // Act / Assess
    expect(classifyFetchFailure(error).delivery).toBe(RequestDelivery.NOT_SENT);
  });

  it('counts an error without a code as maybe sent', () => {
    // Act
    const failure = classifyFetchFailure(new TypeError('fetch failed'));

    // Assess
    expect(failure).toMatchObject({ delivery: RequestDelivery.MAYBE_SENT, code: 'UNKNOWN' });
    expect(classifyFetchFailure('weird').delivery).toBe(RequestDelivery.MAYBE_SENT);
  });

  it('counts the client timeout as maybe sent', () => {
    // Act / Assess
    expect(requestTimeoutFailure(new Error('aborted'))).toMatchObject({
      delivery: RequestDelivery.MAYBE_SENT,
      code: REQUEST_TIMEOUT_CODE,
    });
  });

  it('counts a real refused connection as not sent', async () => {
    // Prepare
    const server = createServer();
    const url = await listen(server);
    await new Promise((resolve) => server.close(resolve));

    // Act
    const error = await rejectionOf(fetch(url));

    // Assess
    expect(classifyFetchFailure(error).delivery).toBe(RequestDelivery.NOT_SENT);
  });

  it('counts a real connection dropped after the request arrived as maybe sent', async () => {
    // Prepare
    let received = 0;
    const server = createServer((request) => {
      received++;
      request.socket.destroy();
    });
    servers.push(server);
    const url = await listen(server);

    // Act
    const error = await rejectionOf(fetch(url, { method: 'POST', body: '{}' }));

    // Assess
    expect(received).toBe(1);
    expect(classifyFetchFailure(error).delivery).toBe(RequestDelivery.MAYBE_SENT);
  });
});
