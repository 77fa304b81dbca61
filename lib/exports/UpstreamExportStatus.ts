/** The upstream's export state, normalised from whatever spelling it used. */
export const UpstreamExportStatus = {
  PROCESSING: 'processing',
  COMPLETED: 'completed',
  FAILED: 'failed',
  ABORTED: 'aborted',
  UNKNOWN: 'unknown',
} as const;
export type UpstreamExportStatus = (typeof UpstreamExportStatus)[keyof typeof UpstreamExportStatus];
