import * as z from 'zod/mini';
import { schemaOnFirstUse } from '../exports/record/schemaOnFirstUse';
import { UpstreamProtocolError } from '../exports/upstream/errors';
import type { CreatedExport, ExportStatusReport, ListedExport } from '../exports/upstream/UpstreamExports';
import { type DownloadLinkPolicy, screenDownloadLinks } from './downloadLinkPolicy';
import { normaliseUpstreamStatus } from './normaliseUpstreamStatus';

/**
 * Tolerant readers for upstream bodies. Most shapes are undocumented
 * (see docs/upstream.md), so every reader accepts the plausible variants, keeps
 * unknown keys and the raw body, and turns anything it cannot use into an
 * `UpstreamProtocolError` instead of crashing. Each reader's schema is built by its first
 * reply (../exports/schemaOnFirstUse.ts).
 */

/** An upstream HTTP answer as the readers need it. */
export interface UpstreamReply {
  statusCode: number;
  bodyText: string;
}

export const BODY_SNIPPET_MAX_CHARS = 200;
const UPSTREAM_MESSAGE_MAX_CHARS = 300;
// Epoch values below this are seconds, above it milliseconds (1e12 ms is in 2001).
const EPOCH_MILLISECONDS_THRESHOLD = 1e12;

export function bodySnippet(bodyText: string): string {
  return bodyText.length > BODY_SNIPPET_MAX_CHARS
    ? `${bodyText.slice(0, BODY_SNIPPET_MAX_CHARS)}…`
    : bodyText;
}

interface ReadOptions {
  /** Leave the body out of errors (auth replies may carry a token). */
  redactBody?: boolean;
}

function protocolError(message: string, reply: UpstreamReply, options: ReadOptions, cause?: unknown) {
  return new UpstreamProtocolError(
    message,
    reply.statusCode,
    options.redactBody ? '' : bodySnippet(reply.bodyText),
    cause === undefined ? {} : { cause },
  );
}

function parseJson(reply: UpstreamReply, options: ReadOptions = {}): unknown {
  try {
    return JSON.parse(reply.bodyText);
  } catch (error) {
    throw protocolError(
      `The upstream answered HTTP ${reply.statusCode} with a body that is not JSON`,
      reply,
      options,
      error,
    );
  }
}

/** A string with something besides white space, trimmed. */
const nonBlankString = () => z.string().check(z.trim(), z.minLength(1));

/** Absent or unusable: undefined instead of an error. */
const tolerant = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

const exportIdSchema = schemaOnFirstUse(() =>
  tolerant(
    z.pipe(
      z.union([nonBlankString(), z.number().check(z.int(), z.nonnegative())]),
      z.transform((id: string | number) => String(id)),
    ),
  ),
);

const optionalStringSchema = schemaOnFirstUse(() => tolerant(nonBlankString()));

const linkSchema = schemaOnFirstUse(() =>
  z.union([
    nonBlankString(),
    z.pipe(
      z.looseObject({ url: nonBlankString() }),
      z.transform((link: { url: string }) => link.url),
    ),
    z.pipe(
      z.looseObject({ link: nonBlankString() }),
      z.transform((link: { link: string }) => link.link),
    ),
    z.pipe(
      z.looseObject({ href: nonBlankString() }),
      z.transform((link: { href: string }) => link.href),
    ),
  ]),
);

// Unusable entries are dropped rather than failing the whole report.
const linksSchema = schemaOnFirstUse(() =>
  z.pipe(
    tolerant(z.union([z.array(z.unknown()), z.string()])),
    z.transform((links: unknown[] | string | undefined) => {
      if (links === undefined) return undefined;
      const items = Array.isArray(links) ? links : [links];
      return items.flatMap((item) => {
        const parsed = linkSchema().safeParse(item);
        return parsed.success ? [parsed.data] : [];
      });
    }),
  ),
);

const exportFieldsSchema = schemaOnFirstUse(() =>
  z.looseObject({
    id: exportIdSchema(),
    export_id: exportIdSchema(),
    exportId: exportIdSchema(),
    status: optionalStringSchema(),
    state: optionalStringSchema(),
    links: linksSchema(),
    download_links: linksSchema(),
    downloadLinks: linksSchema(),
  }),
);
type ExportFields = z.infer<ReturnType<typeof exportFieldsSchema>>;

function exportIdOf(fields: ExportFields): string | undefined {
  return fields.id ?? fields.export_id ?? fields.exportId;
}

function linksOf(fields: ExportFields): string[] | undefined {
  return fields.links ?? fields.download_links ?? fields.downloadLinks;
}

const createdExportFieldsSchema = schemaOnFirstUse(() =>
  z.extend(exportFieldsSchema(), {
    status_link: optionalStringSchema(),
    statusLink: optionalStringSchema(),
  }),
);

const authReplySchema = schemaOnFirstUse(() => z.looseObject({ token: nonBlankString() }));

/** The `token` of an auth reply. Errors never include the body. */
export function readAuthToken(reply: UpstreamReply): string {
  const options = { redactBody: true };
  const parsed = authReplySchema().safeParse(parseJson(reply, options));
  if (!parsed.success) throw protocolError('The upstream auth reply has no token', reply, options);
  return parsed.data.token;
}

/** The export id from `id`/`export_id`/`exportId`, else from the `id` query parameter of `status_link`. */
export function readCreatedExport(reply: UpstreamReply, exportBaseUrl: string): CreatedExport {
  const raw = parseJson(reply);
  const parsed = createdExportFieldsSchema().safeParse(raw);
  if (!parsed.success) throw protocolError('The upstream create reply is not a JSON object', reply, {});
  const statusLink = parsed.data.status_link ?? parsed.data.statusLink;
  const exportId = exportIdOf(parsed.data) ?? exportIdFromStatusLink(statusLink, exportBaseUrl);
  if (exportId === undefined)
    throw protocolError('The upstream create reply carries no export id', reply, {});
  return { exportId, statusLink, raw };
}

function exportIdFromStatusLink(statusLink: string | undefined, exportBaseUrl: string): string | undefined {
  if (statusLink === undefined) return undefined;
  try {
    // A path-only link is resolved against the export host.
    const id = new URL(statusLink, exportBaseUrl).searchParams.get('id')?.trim();
    return id === undefined || id === '' ? undefined : id;
  } catch {
    return undefined;
  }
}

/**
 * A status reply must be an object with a status string or a links array; the id defaults to
 * the one asked for. Links the policy refuses are dropped; a reply whose links are all refused
 * is a protocol error, not a completed export without files.
 */
export function readExportStatusReport(
  reply: UpstreamReply,
  requestedExportId: string,
  linkPolicy: DownloadLinkPolicy,
): ExportStatusReport {
  const raw = parseJson(reply);
  const parsed = exportFieldsSchema().safeParse(raw);
  const report = parsed.success ? toReport(parsed.data, raw, linkPolicy) : undefined;
  if (report === undefined)
    throw protocolError('The upstream status reply carries neither status nor links', reply, {});
  if (report.links.length === 0 && report.rejectedLinkCount > 0) {
    // The body is left out: it consists of the refused links.
    throw protocolError(
      `The upstream status reply lists ${report.rejectedLinkCount} download links and none may be passed on`,
      reply,
      { redactBody: true },
    );
  }
  return { ...report, exportId: report.exportId ?? requestedExportId };
}

function toReport(
  fields: ExportFields,
  raw: unknown,
  linkPolicy: DownloadLinkPolicy,
): (Omit<ExportStatusReport, 'exportId'> & { exportId: string | undefined }) | undefined {
  const rawStatus = fields.status ?? fields.state;
  const links = linksOf(fields);
  if (rawStatus === undefined && links === undefined) return undefined;
  const { accepted, rejected } = screenDownloadLinks(links ?? [], linkPolicy);
  return {
    exportId: exportIdOf(fields),
    status: normaliseUpstreamStatus(rawStatus, accepted),
    rawStatus,
    links: accepted,
    rejectedLinkCount: rejected.length,
    raw,
  };
}

const exportListContainers = ['exports', 'items', 'data', 'results'] as const;

const createdAtSchema = schemaOnFirstUse(() =>
  tolerant(
    z.pipe(
      z.union([nonBlankString(), z.number().check(z.nonnegative())]),
      z.transform((value: string | number) =>
        typeof value === 'string'
          ? value
          : new Date(value < EPOCH_MILLISECONDS_THRESHOLD ? value * 1000 : value).toISOString(),
      ),
    ),
  ),
);

const listedExportFieldsSchema = schemaOnFirstUse(() =>
  z.extend(exportFieldsSchema(), {
    created_at: createdAtSchema(),
    createdAt: createdAtSchema(),
    created: createdAtSchema(),
  }),
);

/**
 * The exports of a list reply: a top-level array or one under
 * `exports`/`items`/`data`/`results`. Entries without an id are skipped
 * (they cannot be acted on); entries without a status report `unknown`.
 * Links the policy refuses are dropped and counted per entry.
 */
export function readListedExports(reply: UpstreamReply, linkPolicy: DownloadLinkPolicy): ListedExport[] {
  const raw = parseJson(reply);
  const entries = listEntries(raw);
  if (entries === undefined)
    throw protocolError('The upstream list reply holds no list of exports', reply, {});
  const schema = listedExportFieldsSchema();
  return entries.flatMap((entry) => {
    const parsed = schema.safeParse(entry);
    if (!parsed.success) return [];
    const exportId = exportIdOf(parsed.data);
    if (exportId === undefined) return [];
    const rawStatus = parsed.data.status ?? parsed.data.state;
    const { accepted, rejected } = screenDownloadLinks(linksOf(parsed.data) ?? [], linkPolicy);
    return [
      {
        exportId,
        status: normaliseUpstreamStatus(rawStatus, accepted),
        rawStatus,
        links: accepted,
        rejectedLinkCount: rejected.length,
        createdAt: parsed.data.created_at ?? parsed.data.createdAt ?? parsed.data.created,
        raw: entry,
      },
    ];
  });
}

function listEntries(raw: unknown): unknown[] | undefined {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  for (const key of exportListContainers) {
    const value = record[key];
    if (Array.isArray(value)) return value;
  }
  return undefined;
}

const errorBodySchema = schemaOnFirstUse(() =>
  z.looseObject({
    message: optionalStringSchema(),
    error: optionalStringSchema(),
    error_description: optionalStringSchema(),
    detail: optionalStringSchema(),
  }),
);

/** The human-readable reason in an error body (`message`, `error`, …), shortened; undefined if none. */
export function readUpstreamMessage(bodyText: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const parsed = errorBodySchema().safeParse(body);
  if (!parsed.success) return undefined;
  const message =
    parsed.data.message ?? parsed.data.error ?? parsed.data.error_description ?? parsed.data.detail;
  return message === undefined || message.length <= UPSTREAM_MESSAGE_MAX_CHARS
    ? message
    : `${message.slice(0, UPSTREAM_MESSAGE_MAX_CHARS)}…`;
}
