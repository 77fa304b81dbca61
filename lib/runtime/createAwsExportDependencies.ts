import type { Logger } from '@aws-lambda-powertools/logger';
import { type Config, requireAwsResources } from '../config';
import { EventBridgeExportEvents } from '../events/EventBridgeExportEvents';
import type { ExportDependencies, ExportMetrics } from '../exports/ports';
import { PowertoolsExportMetrics } from '../observability/PowertoolsExportMetrics';
import { OpenWebClient } from '../openweb/OpenWebClient';
import type { OpenWebClientEvent } from '../openweb/OpenWebClientEvent';
import type { CredentialsProvider } from '../secrets/CredentialsProvider';
import { FileCredentialsProvider } from '../secrets/FileCredentialsProvider';
import { SecretsManagerCredentialsProvider } from '../secrets/SecretsManagerCredentialsProvider';
import { DynamoDbAuthPacer } from '../store/DynamoDbAuthPacer';
import { DynamoDbExportStore } from '../store/DynamoDbExportStore';
import { DynamoDbTokenStore } from '../store/DynamoDbTokenStore';
import { StepFunctionsPollingWorkflows } from '../workflow/StepFunctionsPollingWorkflows';
import { type AwsClients, awsClientFactories } from './AwsClients';

export interface AwsExportDependenciesOptions {
  /** Clients to use instead of new ones (mocked in tests, local endpoints in the local runtime). */
  clients?: Partial<AwsClients>;
  metrics?: ExportMetrics;
  /** Where the upstream client reports its retries and re-authentications. */
  logger?: Logger;
  /** The upstream client's fetch. */
  fetch?: typeof fetch;
  /** Epoch ms. */
  now?: () => number;
}

/**
 * The use cases' dependencies on AWS: DynamoDB for records and the fleet-wide upstream
 * token (same table), Secrets Manager (or a local file) for spot credentials, Step
 * Functions for polling, EventBridge for announcements, Powertools for metrics.
 * Only the clients not given are created. @throws ConfigError when a resource is missing.
 */
export function createAwsExportDependencies(
  config: Config,
  options: AwsExportDependenciesOptions = {},
): ExportDependencies {
  const { tableName, stateMachineArn, eventBusName } = requireAwsResources(config);
  const client = <K extends keyof AwsClients>(name: K): AwsClients[K] =>
    options.clients?.[name] ?? awsClientFactories[name]();
  const now = options.now ?? Date.now;
  const documentClient = client('documentClient');
  const credentials = credentialsProvider(config, () => client('secretsManager'));
  const openWeb = new OpenWebClient({
    authBaseUrl: config.openWeb.authBaseUrl,
    exportBaseUrl: config.openWeb.exportBaseUrl,
    downloadHosts: config.openWeb.downloadHosts,
    credentials,
    // Shared by every container: the auth endpoint allows one call per second per IP.
    tokenStore: new DynamoDbTokenStore({ client: documentClient, tableName, now }),
    // The auth limit is per address: every container reserves its auth slot on one table item.
    authPacer: new DynamoDbAuthPacer({
      client: documentClient,
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
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    ...(options.logger !== undefined && { onEvent: upstreamEventLogger(options.logger) }),
  });
  return {
    store: new DynamoDbExportStore({ client: documentClient, tableName, now }),
    upstream: openWeb,
    credentials,
    workflows: new StepFunctionsPollingWorkflows({ client: client('stepFunctions'), stateMachineArn }),
    events: new EventBridgeExportEvents({ client: client('eventBridge'), eventBusName }),
    metrics: options.metrics ?? new PowertoolsExportMetrics(),
    settings: config.exports,
    now,
  };
}

function credentialsProvider(
  config: Config,
  secretsManager: () => AwsClients['secretsManager'],
): CredentialsProvider {
  const { credentials } = config;
  if (credentials.source === 'file') return new FileCredentialsProvider(credentials.path);
  return new SecretsManagerCredentialsProvider({
    client: secretsManager(),
    secretNamePrefix: credentials.secretNamePrefix,
    cacheMaxAgeSeconds: credentials.cacheMaxAgeSeconds,
  });
}

/** Client events carry no keys or tokens by design; retries are worth seeing, the rest only when debugging. */
function upstreamEventLogger(logger: Logger): (event: OpenWebClientEvent) => void {
  return (event) => {
    if (event.type === 'request') logger.debug('Upstream request', { upstream: event });
    else logger.info('Upstream client event', { upstream: event });
  };
}
