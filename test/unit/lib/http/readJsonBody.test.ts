import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../../../../lib/http/readJsonBody';
import { apiEvent } from '../../../support/apiGatewayEvents';
import { problemOf } from '../../../support/problemOf';

const post = (body: string | undefined, headers: Record<string, string> = {}, isBase64Encoded = false) =>
  apiEvent({ method: 'POST', ...(body !== undefined && { body }), headers, isBase64Encoded });

describe('readJsonBody', () => {
  it('parses a JSON body declared as JSON', () => {
    // Act / Assess
    expect(readJsonBody(post('{"a":1}', { 'content-type': 'application/json' }))).toEqual({ a: 1 });
    expect(readJsonBody(post('[1]', { 'Content-Type': 'application/json; charset=UTF-8' }))).toEqual([1]);
    expect(readJsonBody(post('{}', { 'content-type': 'application/merge-patch+json' }))).toEqual({});
  });

  it('decodes a base64 body', () => {
    // Prepare
    const body = Buffer.from('{"from":"é"}').toString('base64');

    // Act / Assess
    expect(readJsonBody(post(body, { 'content-type': 'application/json' }, true))).toEqual({ from: 'é' });
  });

  it('gives undefined when there is no body', () => {
    // Act / Assess
    expect(readJsonBody(post(undefined))).toBeUndefined();
    expect(readJsonBody(post(''))).toBeUndefined();
  });

  it.each([
    ['no content type', {}],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form data', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['another charset', { 'content-type': 'application/json; charset=latin1' }],
    ['a compressed body', { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
  ])('answers 415 for %s', (_, headers) => {
    // Act
    const problem = problemOf(() => readJsonBody(post('{}', headers)));

    // Assess
    expect(problem).toMatchObject({ status: 415, type: 'unsupported-media-type' });
  });

  it.each([
    [
      'invalid JSON',
      post('{"apiKey": "hunter2",', { 'content-type': 'application/json' }),
      'is not valid JSON',
    ],
    ['invalid base64', post('!!!!', { 'content-type': 'application/json' }, true), 'is not valid base64'],
    [
      'bytes that are not UTF-8',
      post(Buffer.from([0x7b, 0xff, 0x7d]).toString('base64'), { 'content-type': 'application/json' }, true),
      'is not valid UTF-8',
    ],
  ])('answers 400 for %s without quoting the body', (_, event, message) => {
    // Act
    const problem = problemOf(() => readJsonBody(event));

    // Assess
    expect(problem).toMatchObject({
      status: 400,
      type: 'invalid-request',
      errors: [{ field: 'body', message }],
    });
    expect(JSON.stringify(problem)).not.toContain('hunter2');
  });
});
