import { ExportStatus } from '../lib/exports/record/ExportStatus';
import type { ExportView } from '../lib/http/exportViewSchema';

/** What an export covers, in one phrase: `2026-01-01T00:00:00Z → 2026-01-02T00:00:00Z` or the conversation. */
export function describeExportRequest(request: ExportView['request']): string {
  return request.kind === 'conversation'
    ? `conversation ${request.conversationId}`
    : `${request.from} → ${request.until}`;
}

/**
 * The archive in one phrase: `ARCHIVED (2 files, 500 rows)` (`; catalog PENDING: <reason>` while
 * the query table's catalog has not taken its partition), `FAILED: <reason>`, `PENDING`, `NONE`.
 */
export function describeArchive(archive: ExportView['archive']): string {
  if (archive.status === 'ARCHIVED') {
    const files = archive.files === 1 ? '1 file' : `${archive.files} files`;
    const catalog =
      archive.catalog === 'PENDING'
        ? `; catalog PENDING${archive.catalogReason === undefined ? '' : `: ${archive.catalogReason}`}`
        : '';
    return `ARCHIVED (${archive.rows === undefined ? files : `${files}, ${archive.rows} rows`}${catalog})`;
  }
  if (archive.status === 'FAILED' && archive.reason !== undefined) return `FAILED: ${archive.reason}`;
  return archive.status;
}

/** The name of the end time, after how the export ended: an aborted export did not complete. */
function endedLabel(status: ExportView['status']): string {
  if (status === ExportStatus.FAILED) return 'failed';
  if (status === ExportStatus.ABORTED) return 'aborted';
  return status === ExportStatus.COMPLETED ? 'completed' : 'ended';
}

/** One export as `name  value` lines, then its links one per line. */
export function formatExportView(view: ExportView): string {
  const status = view.upstreamStatus ? `${view.status} (upstream: ${view.upstreamStatus})` : view.status;
  const rows: [string, string | number | undefined][] = [
    ['export', view.exportId],
    ['spot', view.spotId],
    ['status', status],
    ['failure', view.failureReason],
    ['request', describeExportRequest(view.request)],
    ['source', view.source],
    ['requested', view.requestedAt],
    ['started', view.startedAt],
    [endedLabel(view.status), view.completedAt],
    ['last polled', view.lastPolledAt],
    ['polls', view.pollCount],
    ['upstream id', view.upstreamExportId],
    ['archive', describeArchive(view.archive)],
    ['cost', describeCost(view)],
  ];
  const shown = rows.filter((row): row is [string, string | number] => row[1] !== undefined);
  const width = Math.max(...shown.map(([name]) => name.length));
  const lines = shown.map(([name, value]) => `${name.padEnd(width)}  ${value}`);
  if (view.links.length > 0) lines.push(`${'links'.padEnd(width)}  ${view.links.length}`, ...view.links);
  return `${lines.join('\n')}\n`;
}

/** `$0.000262 est. (8 transitions, 6 invocations; us-east-1 prices of 2026-11)`. */
export function describeCost(view: Pick<ExportView, 'cost' | 'usage'>): string {
  const { cost, usage } = view;
  return (
    `${formatUsd(cost.totalUsd)} est. (${usage.stateTransitions} transitions, ${usage.taskInvocations} invocations; ` +
    `${cost.pricedFor.region} prices of ${cost.pricedFor.asOf})`
  );
}

/** Dollars to six decimals: an export costs fractions of a cent. */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(6)}`;
}

/** Exports as a table, one row each, newest first as the API lists them. */
export function formatExportTable(views: readonly ExportView[]): string {
  const header = ['EXPORT', 'STATUS', 'ARCHIVE', 'REQUESTED', 'SOURCE', 'POLLS', 'REQUEST'];
  const rows = views.map((view) => [
    view.exportId,
    view.status,
    view.archive.status,
    view.requestedAt,
    view.source,
    String(view.pollCount),
    describeExportRequest(view.request),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ');
  return `${[header, ...rows].map(format).join('\n')}\n`;
}
