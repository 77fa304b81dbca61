import { describe, expect, it } from 'vitest';
import { UpstreamProtocolError } from '../../../../lib/exports/upstream/errors';
import { UpstreamExportStatus } from '../../../../lib/exports/upstream/UpstreamExports';
import { downloadLinkPolicy } from '../../../../lib/openweb/downloadLinkPolicy';
import {
  BODY_SNIPPET_MAX_CHARS,
  readAuthToken,
  readCreatedExport,
  readExportStatusReport,
  readListedExports,
  readUpstreamMessage,
} from '../../../../lib/openweb/responses';

const BASE = 'https://api-exporter.openweb.com';
/** The download host of these examples, `f`, allowed besides the export host. */
const LINK_POLICY = downloadLinkPolicy(BASE, ['f']);

function reply(body: unknown, statusCode = 200) {
  return { statusCode, bodyText: typeof body === 'string' ? body : JSON.stringify(body) };
}

function protocolErrorOf(read: () => unknown): UpstreamProtocolError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamProtocolError);
    return error as UpstreamProtocolError;
  }
  throw new Error('expected an UpstreamProtocolError');
}

describe('readCreatedExport', () => {
  it.each([
    ['id as a string', { id: 'exp_1' }, 'exp_1'],
    ['id as a number', { id: 42 }, '42'],
    ['export_id', { export_id: 'exp_2' }, 'exp_2'],
    ['exportId', { exportId: 7 }, '7'],
    ['an absolute status_link', { status_link: `${BASE}/v4/export/status?id=exp_3` }, 'exp_3'],
    ['a path status_link', { status_link: '/v4/export/status?id=exp_4' }, 'exp_4'],
    ['an encoded id in status_link', { status_link: '/v4/export/status?id=a%20b%2Fc' }, 'a b/c'],
    ['statusLink in camel case', { statusLink: '/v4/export/status?foo=1&id=exp_5' }, 'exp_5'],
    ['id preferred over status_link', { id: 'exp_6', status_link: '/v4/export/status?id=other' }, 'exp_6'],
    ['an unusable id falling back to status_link', { id: null, status_link: '/s?id=exp_7' }, 'exp_7'],
  ])('reads the export id from %s', (_variant, body, expectedId) => {
    // Act
    const created = readCreatedExport(reply(body), BASE);

    // Assess
    expect(created.exportId).toBe(expectedId);
    expect(created.raw).toEqual(body);
  });

  it('keeps the status link and unknown keys of the raw body', () => {
    // Prepare
    const body = { status_link: `${BASE}/v4/export/status?id=e1`, extra: { nested: true } };

    // Act
    const created = readCreatedExport(reply(body), BASE);

    // Assess
    expect(created).toEqual({ exportId: 'e1', statusLink: body.status_link, raw: body });
  });

  it.each([
    ['no id and no link', { message: 'ok' }],
    ['a link without an id parameter', { status_link: `${BASE}/v4/export/status` }],
    ['a link with an empty id', { status_link: `${BASE}/v4/export/status?id=` }],
    ['an unparseable link', { status_link: 'http://[::1' }],
    ['an empty string id', { id: '  ' }],
    ['a JSON array', ['exp_1']],
    ['JSON null', null],
  ])('fails with a protocol error on %s', (_variant, body) => {
    // Act
    const error = protocolErrorOf(() => readCreatedExport(reply(body), BASE));

    // Assess
    expect(error.statusCode).toBe(200);
  });

  it('fails with a protocol error carrying status and a truncated snippet on a non-JSON body', () => {
    // Prepare
    const html = `<html>${'x'.repeat(1_000)}</html>`;

    // Act
    const error = protocolErrorOf(() => readCreatedExport(reply(html, 201), BASE));

    // Assess
    expect(error.statusCode).toBe(201);
    expect(error.bodySnippet.startsWith('<html>xxx')).toBe(true);
    expect(error.bodySnippet.length).toBe(BODY_SNIPPET_MAX_CHARS + 1);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('readExportStatusReport', () => {
  it.each([
    ['Processing', UpstreamExportStatus.PROCESSING],
    ['IN_PROGRESS', UpstreamExportStatus.PROCESSING],
    ['in progress', UpstreamExportStatus.PROCESSING],
    ['running', UpstreamExportStatus.PROCESSING],
    ['Pending', UpstreamExportStatus.PROCESSING],
    ['queued', UpstreamExportStatus.PROCESSING],
    ['Done', UpstreamExportStatus.COMPLETED],
    ['completed', UpstreamExportStatus.COMPLETED],
    ['Complete', UpstreamExportStatus.COMPLETED],
    ['finished', UpstreamExportStatus.COMPLETED],
    ['READY', UpstreamExportStatus.COMPLETED],
    ['success', UpstreamExportStatus.COMPLETED],
    ['Failed', UpstreamExportStatus.FAILED],
    ['failure', UpstreamExportStatus.FAILED],
    ['error', UpstreamExportStatus.FAILED],
    ['Aborted', UpstreamExportStatus.ABORTED],
    ['cancelled', UpstreamExportStatus.ABORTED],
    ['canceled', UpstreamExportStatus.ABORTED],
    ['abort', UpstreamExportStatus.ABORTED],
    [' processing ', UpstreamExportStatus.PROCESSING],
    ['on-hold', UpstreamExportStatus.UNKNOWN],
  ])('normalises status %j to %s and keeps the raw status', (rawStatus, expected) => {
    // Act
    const report = readExportStatusReport(reply({ id: 'e1', status: rawStatus }), 'e1', LINK_POLICY);

    // Assess
    expect(report.status).toBe(expected);
    expect(report.rawStatus).toBe(rawStatus.trim());
    expect(report.links).toEqual([]);
  });

  it('treats non-empty links as completed whatever the status says', () => {
    // Act
    const report = readExportStatusReport(
      reply({ status: 'Processing', links: ['https://f/1.csv.zip'] }),
      'e1',
      LINK_POLICY,
    );

    // Assess
    expect(report.status).toBe(UpstreamExportStatus.COMPLETED);
    expect(report.rawStatus).toBe('Processing');
  });

  it('reads links given as strings or as objects with url, link or href, dropping unusable entries', () => {
    // Prepare
    const links = [
      'https://f/1',
      { url: 'https://f/2' },
      { link: 'https://f/3' },
      { href: 'https://f/4' },
      5,
      {},
      '',
    ];

    // Act
    const report = readExportStatusReport(reply({ status: 'Done', links }), 'e1', LINK_POLICY);

    // Assess
    expect(report.links).toEqual(['https://f/1', 'https://f/2', 'https://f/3', 'https://f/4']);
  });

  it('accepts a single link string and download_links as the field name', () => {
    // Act
    const single = readExportStatusReport(reply({ links: 'https://f/1' }), 'e1', LINK_POLICY);
    const renamed = readExportStatusReport(
      reply({ download_links: [{ url: 'https://f/2' }] }),
      'e1',
      LINK_POLICY,
    );

    // Assess
    expect(single).toMatchObject({
      status: UpstreamExportStatus.COMPLETED,
      rawStatus: undefined,
      links: ['https://f/1'],
    });
    expect(renamed.links).toEqual(['https://f/2']);
  });

  it('takes the id from the body when present and otherwise the one asked for', () => {
    // Act
    const fromBody = readExportStatusReport(
      reply({ export_id: 99, status: 'Processing' }),
      'asked',
      LINK_POLICY,
    );
    const asked = readExportStatusReport(reply({ state: 'Processing' }), 'asked', LINK_POLICY);

    // Assess
    expect(fromBody.exportId).toBe('99');
    expect(asked.exportId).toBe('asked');
    expect(asked.status).toBe(UpstreamExportStatus.PROCESSING);
  });

  it('keeps the raw body including unknown keys', () => {
    // Prepare
    const body = { id: 'e1', status: 'Failed', error: 'disk full', started_at: '2026-01-01T00:00:00Z' };

    // Act
    const report = readExportStatusReport(reply(body), 'e1', LINK_POLICY);

    // Assess
    expect(report).toEqual({
      exportId: 'e1',
      status: UpstreamExportStatus.FAILED,
      rawStatus: 'Failed',
      links: [],
      rejectedLinkCount: 0,
      raw: body,
    });
  });

  it('reports an empty links array with an unknown status as unknown, not completed', () => {
    // Act
    const report = readExportStatusReport(reply({ status: 'mystery', links: [] }), 'e1', LINK_POLICY);

    // Assess
    expect(report.status).toBe(UpstreamExportStatus.UNKNOWN);
  });

  it.each([
    ['not JSON', 'Service Unavailable'],
    ['an empty body', ''],
    ['an object with neither status nor links', '{"id":"e1"}'],
    ['a non-string status and no links', '{"status":3}'],
    ['a JSON string', '"Processing"'],
  ])('fails with a protocol error on %s', (_variant, bodyText) => {
    // Act
    const error = protocolErrorOf(() =>
      readExportStatusReport({ statusCode: 200, bodyText }, 'e1', LINK_POLICY),
    );

    // Assess
    expect(error.statusCode).toBe(200);
    expect(error.bodySnippet).toBe(bodyText);
  });
});

describe('readListedExports', () => {
  const entry = { id: 'e1', status: 'Done', links: ['https://f/1'], created_at: '2026-01-01T00:00:00Z' };

  it.each([
    ['a top-level array', [entry]],
    ['exports', { exports: [entry] }],
    ['items', { items: [entry] }],
    ['data', { data: [entry] }],
    ['results', { results: [entry], total: 1 }],
  ])('reads exports from %s', (_variant, body) => {
    // Act
    const listed = readListedExports(reply(body), LINK_POLICY);

    // Assess
    expect(listed).toEqual([
      {
        exportId: 'e1',
        status: UpstreamExportStatus.COMPLETED,
        rawStatus: 'Done',
        links: ['https://f/1'],
        rejectedLinkCount: 0,
        createdAt: '2026-01-01T00:00:00Z',
        raw: entry,
      },
    ]);
  });

  it('skips entries without an id and converts epoch creation times', () => {
    // Prepare
    const body = {
      exports: [
        { status: 'Done' },
        'e0',
        { export_id: 'e2', createdAt: 1_767_225_600 },
        { exportId: 'e3', created: 1_767_225_600_000, status: 'Failed' },
      ],
    };

    // Act
    const listed = readListedExports(reply(body), LINK_POLICY);

    // Assess
    expect(listed.map((item) => [item.exportId, item.status, item.createdAt])).toEqual([
      ['e2', UpstreamExportStatus.UNKNOWN, '2026-01-01T00:00:00.000Z'],
      ['e3', UpstreamExportStatus.FAILED, '2026-01-01T00:00:00.000Z'],
    ]);
  });

  it.each([
    ['an object without a list', '{"count":0}'],
    ['not JSON', 'oops'],
    ['a number', '42'],
  ])('fails with a protocol error on %s', (_variant, bodyText) => {
    // Act / Assess
    protocolErrorOf(() => readListedExports({ statusCode: 200, bodyText }, LINK_POLICY));
  });
});

describe('readAuthToken', () => {
  it('reads the token and ignores other keys', () => {
    // Act
    const token = readAuthToken(reply({ token: 'jwt-value', expires_in: 86_400 }));

    // Assess
    expect(token).toBe('jwt-value');
  });

  it.each([
    ['no token', '{"tok":"secret-jwt"}'],
    ['an empty token', '{"token":""}'],
    ['not JSON', 'secret-jwt'],
  ])('fails on %s without putting the body in the error', (_variant, bodyText) => {
    // Act
    const error = protocolErrorOf(() => readAuthToken({ statusCode: 200, bodyText }));

    // Assess
    expect(error.bodySnippet).toBe('');
    expect(error.message).not.toContain('secret-jwt');
  });
});

describe('readUpstreamMessage', () => {
  it.each([
    ['{"message":"Same request already in progress"}', 'Same request already in progress'],
    ['{"error":"bad range"}', 'bad range'],
    ['{"error_description":"nope"}', 'nope'],
    ['{"detail":"why"}', 'why'],
    ['{"error":{"code":1}}', undefined],
    ['not json', undefined],
    ['[1]', undefined],
  ])('reads %s as %j', (bodyText, expected) => {
    // Act / Assess
    expect(readUpstreamMessage(bodyText)).toBe(expected);
  });

  it('shortens long messages', () => {
    // Act
    const message = readUpstreamMessage(JSON.stringify({ message: 'm'.repeat(1_000) }));

    // Assess
    expect(message?.length).toBeLessThan(400);
    expect(message?.endsWith('…')).toBe(true);
  });
});
