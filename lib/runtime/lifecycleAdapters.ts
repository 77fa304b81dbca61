import {
  dynamoDbCoverageLedgerFactory,
  dynamoDbExportStoreFactory,
  dynamoDbIdempotencyKeysFactory,
  dynamoDbSpotLocksFactory,
} from './adapterFactories/dynamoDbFactories';
import { eventBridgeEventsFactory } from './adapterFactories/eventBridgeFactories';
import { openWebUpstreamFactory } from './adapterFactories/openWebUpstreamFactory';
import { spotCredentialsFactory } from './adapterFactories/spotCredentialsFactory';
import { stepFunctionsWorkflowsFactory } from './adapterFactories/stepFunctionsWorkflowsFactory';
import type { AdapterFactories } from './buildDependencies';

/**
 * Every adapter the export lifecycle uses on AWS: DynamoDB for records, the coverage ledger, locks, keys and the
 * fleet-wide upstream token (one table), Secrets Manager (or a local file) for spot credentials,
 * OpenWeb upstream, Step Functions for polling, EventBridge for announcements. The functions
 * that may take an export to its end (a status read, the workflow's tasks, abort, the
 * reconciler, the backfills API) take them all; the last two add the backfills' plans
 * (`dynamoDbBackfillStoreFactory`), which the others do not carry.
 */
export const LIFECYCLE_ADAPTERS = {
  store: dynamoDbExportStoreFactory,
  coverage: dynamoDbCoverageLedgerFactory,
  spotLocks: dynamoDbSpotLocksFactory,
  idempotencyKeys: dynamoDbIdempotencyKeysFactory,
  credentials: spotCredentialsFactory,
  upstream: openWebUpstreamFactory,
  workflows: stepFunctionsWorkflowsFactory,
  events: eventBridgeEventsFactory,
} satisfies AdapterFactories<
  'store' | 'coverage' | 'spotLocks' | 'idempotencyKeys' | 'credentials' | 'upstream' | 'workflows' | 'events'
>;
