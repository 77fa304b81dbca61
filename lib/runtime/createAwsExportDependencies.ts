import type { Logger } from '@aws-lambda-powertools/logger';
import type { Config } from '../config';
import type { ExportDependencies, ExportMetrics } from '../exports/ports';
import { PowertoolsExportMetrics } from '../observability/PowertoolsExportMetrics';
import type { AwsClients } from './AwsClients';
import { buildExportDependencies, type PortFactories, type PortName } from './buildExportDependencies';
import { dynamoDbExportStore } from './ports/dynamoDbExportStore';
import { eventBridgeEvents } from './ports/eventBridgeEvents';
import { openWebUpstream } from './ports/openWebUpstream';
import { spotCredentials } from './ports/spotCredentials';
import { stepFunctionsWorkflows } from './ports/stepFunctionsWorkflows';

/**
 * Every port on AWS: DynamoDB for records and the fleet-wide upstream token (same table),
 * Secrets Manager (or a local file) for spot credentials, OpenWeb upstream, Step Functions
 * for polling, EventBridge for announcements. The functions that run the whole lifecycle
 * (check-status, abort) take them all.
 */
export const AWS_EXPORT_PORTS: PortFactories<PortName> = {
  store: dynamoDbExportStore,
  credentials: spotCredentials,
  upstream: openWebUpstream,
  workflows: stepFunctionsWorkflows,
  events: eventBridgeEvents,
};

export interface AwsExportDependenciesOptions {
  /** Clients to use instead of new ones (mocked in tests, local endpoints in the local runtime). */
  clients?: Partial<AwsClients>;
  /** Powertools metrics unless given. */
  metrics?: ExportMetrics;
  /** Where the upstream client reports its retries and re-authentications. */
  logger?: Logger;
  /** The upstream client's fetch. */
  fetch?: typeof fetch;
  /** Epoch ms. */
  now?: () => number;
}

/**
 * All the use cases' dependencies on AWS, through `buildExportDependencies`. Only the clients
 * not given are created. @throws ConfigError when a resource is missing.
 */
export function createAwsExportDependencies(
  config: Config,
  options: AwsExportDependenciesOptions = {},
): ExportDependencies {
  return buildExportDependencies(config, AWS_EXPORT_PORTS, {
    ...options,
    metrics: options.metrics ?? new PowertoolsExportMetrics(),
  });
}
