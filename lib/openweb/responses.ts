import { UpstreamProtocolError } from '../exports/upstream/errors';
import type { CreatedExport, ExportStatusReport, ListedExport } from '../exports/upstream/UpstreamExports';
import { type DownloadLinkPolicy, screenDownloadLinks } from './downloadLinkPolicy';
import { normaliseUpstreamStatus } from './normaliseUpstreamStatus';

/**
 * Tolerant readers for upstream bodies. Most shapes are undocumented
 * (see docs/upstream.md), so every reader accepts the plausible variants, keeps
 * unknown keys and the raw body, and turns anything it cannot use into an
 * `UpstreamProtocolError` instead of crashing. They are plain checks rather than schemas: every
 * function that talks to the upstream carries them, and a schema library would be most of what
 * those functions load beyond the AWS SDK.
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

/** A JSON object (not an array), its members by name; undefined for anything else. */
function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A string with something besides white space, trimmed; undefined for anything else. */
function nonBlankString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An export id given as a non-blank string or a non-negative integer, as a string. */
function exportIdValue(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  return nonBlankString(value);
}

/** A link as a string, or an object with `url`, `link` or `href` (tried in that order). */
function linkValue(value: unknown): string | undefined {
  if (typeof value === 'string') return nonBlankString(value);
  const link = objectOf(value);
  if (link === undefined) return undefined;
  return nonBlankString(link.url) ?? nonBlankString(link.link) ?? nonBlankString(link.href);
}

// Unusable entries are dropped rather than failing the whole report.
function linksValue(value: unknown): string[] | undefined {
  if (!Array.isArray(value) && typeof value !== 'string') return undefined;
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => {
    const link = linkValue(item);
    return link === undefined ? [] : [link];
  });
}

/** The fields every export of a reply may carry, under the names the upstream has used for them. */
interface ExportFields {
  exportId: string | undefined;
  status: string | undefined;
  links: string[] | undefined;
}

function exportFieldsOf(body: Readonly<Record<string, unknown>>): ExportFields {
  return {
    exportId: exportIdValue(body.id) ?? exportIdValue(body.export_id) ?? exportIdValue(body.exportId),
    status: nonBlankString(body.status) ?? nonBlankString(body.state),
    links: linksValue(body.links) ?? linksValue(body.download_links) ?? linksValue(body.downloadLinks),
  };
}

/** The `token` of an auth reply. Errors never include the body. */
export function readAuthToken(reply: UpstreamReply): string {
  const options = { redactBody: true };
  const token = nonBlankString(objectOf(parseJson(reply, options))?.token);
  if (token === undefined) throw protocolError('The upstream auth reply has no token', reply, options);
  return token;
}

/** The export id from `id`/`export_id`/`exportId`, else from the `id` query parameter of `status_link`. */
export function readCreatedExport(reply: UpstreamReply, exportBaseUrl: string): CreatedExport {
  const raw = parseJson(reply);
  const body = objectOf(raw);
  if (body === undefined) throw protocolError('The upstream create reply is not a JSON object', reply, {});
  const statusLink = nonBlankString(body.status_link) ?? nonBlankString(body.statusLink);
  const exportId = exportFieldsOf(body).exportId ?? exportIdFromStatusLink(statusLink, exportBaseUrl);
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
  const body = objectOf(raw);
  const report = body === undefined ? undefined : toReport(exportFieldsOf(body), raw, linkPolicy);
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
  const { status: rawStatus, links } = fields;
  if (rawStatus === undefined && links === undefined) return undefined;
  const { accepted, rejected } = screenDownloadLinks(links ?? [], linkPolicy);
  return {
    exportId: fields.exportId,
    status: normaliseUpstreamStatus(rawStatus, accepted),
    rawStatus,
    links: accepted,
    rejectedLinkCount: rejected.length,
    raw,
  };
}

const exportListContainers = ['exports', 'items', 'data', 'results'] as const;

/** A creation time as given (a non-blank string), or an epoch in seconds or milliseconds as ISO-8601. */
function createdAtValue(value: unknown): string | undefined {
  if (typeof value !== 'number') return nonBlankString(value);
  if (!Number.isFinite(value) || value < 0) return undefined;
  return new Date(value < EPOCH_MILLISECONDS_THRESHOLD ? value * 1000 : value).toISOString();
}

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
  return entries.flatMap((entry) => {
    const body = objectOf(entry);
    if (body === undefined) return [];
    const { exportId, status: rawStatus, links } = exportFieldsOf(body);
    if (exportId === undefined) return [];
    const { accepted, rejected } = screenDownloadLinks(links ?? [], linkPolicy);
    return [
      {
        exportId,
        status: normaliseUpstreamStatus(rawStatus, accepted),
        rawStatus,
        links: accepted,
        rejectedLinkCount: rejected.length,
        createdAt:
          createdAtValue(body.created_at) ?? createdAtValue(body.createdAt) ?? createdAtValue(body.created),
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

/** The human-readable reason in an error body (`message`, `error`, …), shortened; undefined if none. */
export function readUpstreamMessage(bodyText: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const fields = objectOf(body);
  if (fields === undefined) return undefined;
  const message =
    nonBlankString(fields.message) ??
    nonBlankString(fields.error) ??
    nonBlankString(fields.error_description) ??
    nonBlankString(fields.detail);
  return message === undefined || message.length <= UPSTREAM_MESSAGE_MAX_CHARS
    ? message
    : `${message.slice(0, UPSTREAM_MESSAGE_MAX_CHARS)}…`;
}
