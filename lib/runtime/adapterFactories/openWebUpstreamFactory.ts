import type { Logger } from '@aws-lambda-powertools/logger';
import { OpenWebClient } from '../../openweb/OpenWebClient';
import type { OpenWebClientEvent } from '../../openweb/OpenWebClientEvent';
import { DynamoDbAuthPacer } from '../../store/DynamoDbAuthPacer';
import { DynamoDbTokenStore } from '../../store/DynamoDbTokenStore';
import type { AdapterFactory } from '../buildDependencies';
import { requiredResource } from './requiredResource';

/** OpenWeb's Export API, signing in with the build's credentials port. */
export const openWebUpstreamFactory: AdapterFactory<'upstream'> = (context) => {
  const { config, now } = context;
  const tableName = requiredResource(config.resources.tableName, 'TABLE_NAME');
  const client = context.documentClient();
  return new OpenWebClient({
    authBaseUrl: config.openWeb.authBaseUrl,
    exportBaseUrl: config.openWeb.exportBaseUrl,
    downloadHosts: config.openWeb.downloadHosts,
    credentials: context.adapter('credentials'),
    // Shared by every container (and kept across local restarts): the auth endpoint allows one call per second per IP.
    tokenStore: new DynamoDbTokenStore({ client, tableName, now }),
    // The auth limit is per address: every container reserves its auth slot on one table item.
    authPacer: new DynamoDbAuthPacer({
      client,
      tableName,
      requestsPerSecond: config.openWeb.authRequestsPerSecond,
      now,
    }),
    requestTimeoutMs: config.openWeb.requestTimeoutMs,
    retry: { maxAttempts: config.openWeb.maxAttempts, totalBudgetMs: config.openWeb.retryBudgetMs },
    maxConcurrentRequests: config.openWeb.maxConcurrentRequests,
    ...(config.openWeb.maxRequestsPerSecond !== undefined && {
      maxRequestsPerSecond: config.openWeb.maxRequestsPerSecond,
    }),
    now,
    ...(context.fetch !== undefined && { fetch: context.fetch }),
    ...(context.logger !== undefined && { onEvent: upstreamEventLogger(context.logger) }),
  });
};

/** Client events carry no keys or tokens by design; retries are worth seeing, the rest only when debugging. */
function upstreamEventLogger(logger: Logger): (event: OpenWebClientEvent) => void {
  return (event) => {
    if (event.type === 'request') logger.debug('Upstream request', { upstream: event });
    else logger.info('Upstream client event', { upstream: event });
  };
}
