import { describe, expect, it } from 'vitest';
import { newExportId } from '../../../../lib/exports/record/exportId';
import { ProblemError } from '../../../../lib/http/ProblemError';
import { problemForError } from '../../../../lib/http/problemForError';
import { readExportId } from '../../../../lib/http/readExportId';
import { readIdempotencyKey } from '../../../../lib/http/readIdempotencyKey';
import { readListQuery } from '../../../../lib/http/readListQuery';
import { readSpotId } from '../../../../lib/http/readSpotId';
import { apiEvent } from '../../../support/apiGatewayEvents';

function problemOf(action: () => unknown) {
  try {
    action();
  } catch (error) {
    if (error instanceof ProblemError) return problemForError(error);
    throw error;
  }
  throw new Error('expected a ProblemError');
}

describe('readSpotId', () => {
  it('reads x-spot-id whatever the header name case', () => {
    // Act / Assess
    expect(readSpotId(apiEvent({ headers: { 'x-spot-id': 'sp_abc' } }))).toBe('sp_abc');
    expect(readSpotId({ ...apiEvent(), headers: { 'X-Spot-Id': 'sp_abc' } })).toBe('sp_abc');
  });

  it.each([
    ['missing', {}, 'is required'],
    ['malformed', { 'x-spot-id': 'sp abc; drop table' }, expect.stringContaining('sp_')],
    ['two values joined by API Gateway', { 'x-spot-id': 'sp_a,sp_b' }, expect.stringContaining('sp_')],
  ])('answers 400 when %s, without echoing the value', (_, headers, message) => {
    // Act
    const problem = problemOf(() => readSpotId(apiEvent({ headers })));

    // Assess
    expect(problem).toMatchObject({ status: 400, errors: [{ field: 'header.x-spot-id', message }] });
    expect(JSON.stringify(problem)).not.toContain('drop table');
  });
});

describe('readExportId', () => {
  it('reads a well-formed export id from the path', () => {
    // Prepare
    const exportId = newExportId();

    // Act / Assess
    expect(readExportId(apiEvent({ route: '/exports/{exportId}', exportId }))).toBe(exportId);
  });

  it.each(['ex_short', '../etc/passwd', '', 'EX_01M6BFP5G0K6YA00CEV4EVNFYS'])(
    'answers 404, not 400, for the malformed id %j',
    (exportId) => {
      // Act
      const problem = problemOf(() => readExportId(apiEvent({ route: '/exports/{exportId}', exportId })));

      // Assess
      expect(problem).toMatchObject({ status: 404, type: 'export-not-found' });
    },
  );
});

describe('readIdempotencyKey', () => {
  it('reads the key into its own namespace, apart from the scheduler keys', () => {
    // Act / Assess
    expect(readIdempotencyKey(apiEvent({ headers: { 'idempotency-key': 'schedule:P1D:x' } }))).toBe(
      'api:schedule:P1D:x',
    );
    expect(readIdempotencyKey(apiEvent())).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a control character', 'key\u0000'],
    ['not ASCII', 'clé'],
  ])('answers 400 for a key that is %s', (_, key) => {
    // Act
    const problem = problemOf(() => readIdempotencyKey(apiEvent({ headers: { 'idempotency-key': key } })));

    // Assess
    expect(problem).toMatchObject({ status: 400, errors: [{ field: 'header.idempotency-key' }] });
  });

  it('accepts 255 printable characters', () => {
    // Prepare
    const key = '~'.repeat(255);

    // Act / Assess
    expect(readIdempotencyKey(apiEvent({ headers: { 'idempotency-key': key } }))).toBe(`api:${key}`);
  });
});

describe('readListQuery', () => {
  it('reads limit, nextToken and status', () => {
    // Act
    const query = readListQuery(
      apiEvent({ query: { limit: '100', nextToken: 'eyJhIjoiYiJ9', status: 'COMPLETED' } }),
    );

    // Assess
    expect(query).toEqual({ limit: 100, nextToken: 'eyJhIjoiYiJ9', status: 'COMPLETED' });
    expect(readListQuery(apiEvent())).toEqual({});
  });

  it.each([
    [{ limit: '0' }, 'query.limit'],
    [{ limit: '101' }, 'query.limit'],
    [{ limit: '1.5' }, 'query.limit'],
    [{ limit: '2,3' }, 'query.limit'],
    [{ status: 'completed' }, 'query.status'],
    [{ nextToken: 'not a token!' }, 'query.nextToken'],
    [{ nextToken: 'a'.repeat(2049) }, 'query.nextToken'],
    [{ limt: '5' }, 'query.limt'],
    [{ 'bad name!': '5' }, 'query'],
  ])('answers 400 for %j', (query, field) => {
    // Act
    const problem = problemOf(() => readListQuery(apiEvent({ query })));

    // Assess
    expect(problem).toMatchObject({ status: 400, errors: [{ field }] });
  });
});
