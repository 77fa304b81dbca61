/** The client's upstream calls, as named in events. */
export const OpenWebOperation = {
  AUTHENTICATE: 'authenticate',
  CREATE_EXPORT: 'createExport',
  GET_EXPORT_STATUS: 'getExportStatus',
  ABORT_EXPORT: 'abortExport',
  LIST_EXPORTS: 'listExports',
} as const;
export type OpenWebOperation = (typeof OpenWebOperation)[keyof typeof OpenWebOperation];
