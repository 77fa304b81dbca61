export type { CommentHistoryView, CommentListing, CommentListingQuery } from './commentHistoryView';
export { buildCommentsArchive } from './commentsArchive';
export { formatCsv } from './csv';
export { DOWNLOAD_LINK_LIFETIME_MS } from './DownloadLinkSigner';
export { EXPORT_RATE_LIMIT_SCOPES, type ExportRateLimitScope } from './ExportRateLimit';
export {
  InvalidSimulatorFaultsError,
  InvalidSimulatorStateError,
  OpenWebSimulatorError,
  SimulatedExportFinishedError,
  SpotExportInProgressError,
  UnknownSimulatedExportError,
} from './errors';
export {
  DEMO_SPOTS,
  type OpenWebSimulator,
  type OpenWebSimulatorOptions,
  startOpenWebSimulator,
} from './OpenWebSimulator';
export type { RateLimitRefusals } from './RateLimitRefusals';
export type { SimulatorRequest } from './RequestLog';
export {
  CSV_DELIMITERS,
  MAX_EXPORT_RANGE_HOURS,
  MAX_RECORDS_IN_FILE,
  validateCreateExportRequest,
} from './requestValidation';
export {
  defaultExportDurationMs,
  type SimulatedExportOutcome,
  type SimulatedExportState,
  SimulatedExportStates,
  type SimulatedExportView,
} from './SimulatedExports';
export { SIMULATOR_ENDPOINTS, type SimulatorEndpoint } from './SimulatorEndpoint';
export {
  type EndpointFaults,
  parseSimulatorFaults,
  SCRIPTED_FAULT_KINDS,
  type ScriptedFault,
  type ScriptedFaultKind,
  type SimulatorFaults,
} from './SimulatorFaults';
export { RATE_LIMIT_WINDOW_MS } from './SlidingWindowRateLimiter';
export { COMMENT_FIELDS, type SimulatedComment } from './simulatedComments';
export { type CommentChangeKind, CommentChangeKinds, commentAsOf } from './UpstreamComments';
export { type CreateResponseStyle, type ListEntryStyle, UpstreamExportStatuses } from './UpstreamEndpoints';
