import { UpstreamExportStatus } from '../exports/upstream/UpstreamExports';

// The upstream documents only "Processing"; the other spellings are guesses kept deliberately broad.
const statusBySpelling: ReadonlyMap<string, UpstreamExportStatus> = new Map([
  ...['processing', 'in_progress', 'inprogress', 'running', 'pending', 'queued', 'started', 'created'].map(
    (spelling) => [spelling, UpstreamExportStatus.PROCESSING] as const,
  ),
  ...['done', 'completed', 'complete', 'finished', 'ready', 'success', 'succeeded', 'successful'].map(
    (spelling) => [spelling, UpstreamExportStatus.COMPLETED] as const,
  ),
  ...['failed', 'failure', 'error', 'errored'].map(
    (spelling) => [spelling, UpstreamExportStatus.FAILED] as const,
  ),
  ...['aborted', 'cancelled', 'canceled', 'abort', 'cancel'].map(
    (spelling) => [spelling, UpstreamExportStatus.ABORTED] as const,
  ),
]);

/**
 * Normalise a raw upstream status. Non-empty `links` mean the files are ready,
 * whatever the status string says.
 */
export function normaliseUpstreamStatus(
  rawStatus: string | undefined,
  links: readonly string[] = [],
): UpstreamExportStatus {
  if (links.length > 0) return UpstreamExportStatus.COMPLETED;
  if (rawStatus === undefined) return UpstreamExportStatus.UNKNOWN;
  const spelling = rawStatus
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return statusBySpelling.get(spelling) ?? UpstreamExportStatus.UNKNOWN;
}
