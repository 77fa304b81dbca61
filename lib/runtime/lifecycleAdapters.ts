import {
  dynamoDbBackfillStoreFactory,
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
 * Every adapter the export lifecycle uses on AWS: DynamoDB for records, the coverage ledger, backfills, locks, keys and the
 * fleet-wide upstream token (one table), Secrets Manager (or a local file) for spot credentials,
 * OpenWeb upstream, Step Functions for polling, EventBridge for announcements. The functions
 * that may take an export to its end (a status read, the workflow's tasks, abort, the
 * reconciler) take them all.
 */
export const LIFECYCLE_ADAPTERS = {
  store: dynamoDbExportStoreFactory,
  coverage: dynamoDbCoverageLedgerFactory,
  backfills: dynamoDbBackfillStoreFactory,
  spotLocks: dynamoDbSpotLocksFactory,
  idempotencyKeys: dynamoDbIdempotencyKeysFactory,
  credentials: spotCredentialsFactory,
  upstream: openWebUpstreamFactory,
  workflows: stepFunctionsWorkflowsFactory,
  events: eventBridgeEventsFactory,
} satisfies AdapterFactories<
  | 'store'
  | 'coverage'
  | 'backfills'
  | 'spotLocks'
  | 'idempotencyKeys'
  | 'credentials'
  | 'upstream'
  | 'workflows'
  | 'events'
>;
