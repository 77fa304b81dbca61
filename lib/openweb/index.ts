export { ConcurrencyLimiter } from './ConcurrencyLimiter';
export type {
  ConversationExportRequest,
  CreateExportRequest,
  DateRangeExportRequest,
  ExportFileOptions,
} from './CreateExportRequest';
export {
  checkDownloadLink,
  DEFAULT_DOWNLOAD_HOSTS,
  type DownloadLinkPolicy,
  DownloadLinkRejection,
  downloadLinkPolicy,
  isDownloadHostEntry,
  MAX_DOWNLOAD_LINK_CHARS,
  screenDownloadLinks,
} from './downloadLinkPolicy';
export {
  AmbiguousCreateError,
  AmbiguousCreateReason,
  AuthRejectedError,
  ExportConflictError,
  ExportNotAbortableError,
  InvalidExportRequestError,
  InvalidSpotIdError,
  OpenWebError,
  SpotForbiddenError,
  TokenUnavailableError,
  UpstreamExportNotFoundError,
  UpstreamProtocolError,
  UpstreamRateLimitedError,
  UpstreamRequestRejectedError,
  UpstreamUnavailableError,
} from './errors';
export { InMemoryTokenStore, type InMemoryTokenStoreOptions } from './InMemoryTokenStore';
export {
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_TOKEN_REFRESH_LEASE_MS,
  DEFAULT_TOKEN_REFRESH_MARGIN_MS,
  DEFAULT_TOKEN_STORE_POLL_INTERVAL_MS,
  type ListExportsOptions,
  OpenWebClient,
  type OpenWebClientOptions,
} from './OpenWebClient';
export type { OpenWebClientEvent } from './OpenWebClientEvent';
export { OpenWebOperation } from './OpenWebOperation';
export { RequestRateLimiter, type RequestRateLimiterOptions } from './RequestRateLimiter';
export type { CreatedExport, ExportStatusReport, ListedExport } from './responses';
export { DEFAULT_RETRY_POLICY, parseRetryAfterMs, type RetryPolicy } from './retryPolicy';
export { DEFAULT_TOKEN_LIFETIME_MS, tokenExpiresAt } from './TokenProvider';
export type { TokenStore, UpstreamToken } from './TokenStore';
export { normaliseUpstreamStatus, UpstreamExportStatus } from './UpstreamExportStatus';
export {
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  UpstreamGovernor,
  type UpstreamGovernorOptions,
} from './UpstreamGovernor';
