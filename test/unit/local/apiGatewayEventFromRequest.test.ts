import { describe, expect, it } from 'vitest';
import { isApiGatewayEvent } from '../../../lib/http/apiGatewayEvent';
import { readJsonBody } from '../../../lib/http/readJsonBody';
import { readListQuery } from '../../../lib/http/readListQuery';
import { readSpotId } from '../../../lib/http/readSpotId';
import { HandlerNames, ROUTES, type Route } from '../../../lib/http/routeTable';
import {
  apiGatewayEventFromRequest,
  type LocalHttpRequest,
} from '../../../local/http/apiGatewayEventFromRequest';

const route = (handler: string): Route => ROUTES.find((candidate) => candidate.handler === handler) as Route;
const RECEIVED_AT_MS = Date.parse('2026-11-21T19:44:05.123Z');

function request(init: Partial<LocalHttpRequest> = {}): LocalHttpRequest {
  return {
    method: 'GET',
    target: '/exports',
    httpVersion: '1.1',
    rawHeaders: ['Host', '127.0.0.1:3000', 'User-Agent', 'curl/8'],
    body: Buffer.alloc(0),
    sourceIp: '127.0.0.1',
    receivedAtMs: RECEIVED_AT_MS,
    requestId: 'request-1',
    ...init,
  };
}

describe('apiGatewayEventFromRequest', () => {
  it('builds a payload 2.0 event the handlers recognise, with the request context filled in', () => {
    // Act
    const event = apiGatewayEventFromRequest(request(), route(HandlerNames.LIST), {});

    // Assess
    expect(isApiGatewayEvent(event)).toBe(true);
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /exports',
      rawPath: '/exports',
      rawQueryString: '',
      isBase64Encoded: false,
      requestContext: {
        domainName: '127.0.0.1',
        domainPrefix: '127',
        http: {
          method: 'GET',
          path: '/exports',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'curl/8',
        },
        requestId: 'request-1',
        routeKey: 'GET /exports',
        stage: '$default',
        time: '21/Nov/2026:19:44:05 +0000',
        timeEpoch: RECEIVED_AT_MS,
      },
    });
    expect(event).not.toHaveProperty('body');
    expect(event).not.toHaveProperty('queryStringParameters');
    expect(event).not.toHaveProperty('pathParameters');
    expect(event).not.toHaveProperty('cookies');
  });

  it('lower-cases header names, joins repeated headers with commas and moves cookies out', () => {
    // Prepare
    const rawHeaders = [
      'X-Spot-Id',
      'sp_demo',
      'Accept',
      'application/json',
      'accept',
      'text/plain',
      'Cookie',
      'a=1; b=2',
      'cookie',
      'c=3',
    ];

    // Act
    const event = apiGatewayEventFromRequest(request({ rawHeaders }), route(HandlerNames.LIST), {});

    // Assess
    expect(event.headers).toEqual({ 'x-spot-id': 'sp_demo', accept: 'application/json,text/plain' });
    expect(event.cookies).toEqual(['a=1', 'b=2', 'c=3']);
    expect(readSpotId(event)).toBe('sp_demo');
  });

  it('keeps the raw query string and decodes the parameters, joining repeated ones with commas', () => {
    // Act
    const event = apiGatewayEventFromRequest(
      request({ target: '/exports?status=COMPLETED&limit=5&tag=a%20b&tag=c' }),
      route(HandlerNames.LIST),
      {},
    );

    // Assess
    expect(event.rawQueryString).toBe('status=COMPLETED&limit=5&tag=a%20b&tag=c');
    expect(event.queryStringParameters).toEqual({ status: 'COMPLETED', limit: '5', tag: 'a b,c' });
  });

  it('gives the decoded path and the path parameters it is given', () => {
    // Act
    const event = apiGatewayEventFromRequest(
      request({ method: 'POST', target: '/exports/ex%5F1/abort' }),
      route(HandlerNames.ABORT),
      { exportId: 'ex_1' },
    );

    // Assess
    expect(event.rawPath).toBe('/exports/ex_1/abort');
    expect(event.requestContext.http.path).toBe('/exports/ex_1/abort');
    expect(event.routeKey).toBe('POST /exports/{exportId}/abort');
    expect(event.pathParameters).toEqual({ exportId: 'ex_1' });
  });

  it('passes a JSON body as UTF-8 text that the handlers read back', () => {
    // Prepare
    const body = { from: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z', note: 'Zoë' };

    // Act
    const event = apiGatewayEventFromRequest(
      request({
        method: 'POST',
        rawHeaders: ['Content-Type', 'application/json; charset=utf-8'],
        body: Buffer.from(JSON.stringify(body), 'utf8'),
      }),
      route(HandlerNames.START),
      {},
    );

    // Assess
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBe(JSON.stringify(body));
    expect(readJsonBody(event)).toEqual(body);
  });

  it('base64-encodes binary bodies and text bodies that are not UTF-8', () => {
    // Prepare
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41]);

    // Act
    const binary = apiGatewayEventFromRequest(
      request({ method: 'POST', rawHeaders: ['Content-Type', 'application/octet-stream'], body: bytes }),
      route(HandlerNames.START),
      {},
    );
    const badText = apiGatewayEventFromRequest(
      request({ method: 'POST', rawHeaders: ['Content-Type', 'application/json'], body: bytes }),
      route(HandlerNames.START),
      {},
    );

    // Assess
    expect(binary).toMatchObject({ isBase64Encoded: true, body: bytes.toString('base64') });
    expect(badText).toMatchObject({ isBase64Encoded: true, body: bytes.toString('base64') });
  });

  it('yields a query the list handler validates like any API Gateway query', () => {
    // Act
    const event = apiGatewayEventFromRequest(
      request({ target: '/exports?limit=5&status=PROCESSING' }),
      route(HandlerNames.LIST),
      {},
    );

    // Assess
    expect(readListQuery(event)).toEqual({ limit: 5, status: 'PROCESSING' });
  });
});
