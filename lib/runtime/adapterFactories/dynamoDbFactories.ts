import { DynamoDbArchiveRecords } from '../../store/DynamoDbArchiveRecords';
import { DynamoDbBackfillStore } from '../../store/DynamoDbBackfillStore';
import { DynamoDbCoverageLedger } from '../../store/DynamoDbCoverageLedger';
import { DynamoDbErasureStore } from '../../store/DynamoDbErasureStore';
import { DynamoDbExportStore } from '../../store/DynamoDbExportStore';
import { DynamoDbFreshnessMarks } from '../../store/DynamoDbFreshnessMarks';
import { DynamoDbIdempotencyKeys } from '../../store/DynamoDbIdempotencyKeys';
import { DynamoDbSpotLocks } from '../../store/DynamoDbSpotLocks';
import { DynamoDbSuppressionList } from '../../store/DynamoDbSuppressionList';
import type { AdapterContext, AdapterFactory } from '../buildDependencies';
import { requiredResource } from './requiredResource';

function table({ config, documentClient }: AdapterContext) {
  return { client: documentClient(), tableName: requiredResource(config.resources.tableName, 'TABLE_NAME') };
}

/** The export records on the exports table. */
export const dynamoDbExportStoreFactory: AdapterFactory<'store'> = (context) =>
  new DynamoDbExportStore(table(context));

/** The spot locks, beside the records on the same table. */
export const dynamoDbSpotLocksFactory: AdapterFactory<'spotLocks'> = (context) =>
  new DynamoDbSpotLocks({ ...table(context), now: context.now });

/** The idempotency keys, beside the records on the same table. */
export const dynamoDbIdempotencyKeysFactory: AdapterFactory<'idempotencyKeys'> = (context) =>
  new DynamoDbIdempotencyKeys({ ...table(context), now: context.now });

/** The archive state on the export records. */
export const dynamoDbArchiveRecordsFactory: AdapterFactory<'archives'> = (context) =>
  new DynamoDbArchiveRecords(table(context));

/** The coverage ledger (windows, schedule watermarks), beside the records on the same table. */
export const dynamoDbCoverageLedgerFactory: AdapterFactory<'coverage'> = (context) =>
  new DynamoDbCoverageLedger(table(context));

/** The backfills' plans, beside the ledger on the same table. */
export const dynamoDbBackfillStoreFactory: AdapterFactory<'backfills'> = (context) =>
  new DynamoDbBackfillStore(table(context));

/** The spots' freshness marks, beside the ledger on the same table. */
export const dynamoDbFreshnessMarksFactory: AdapterFactory<'freshnessMarks'> = (context) =>
  new DynamoDbFreshnessMarks(table(context));

/** The erasures, beside the records on the same table. */
export const dynamoDbErasureStoreFactory: AdapterFactory<'erasures'> = (context) =>
  new DynamoDbErasureStore(table(context));

/** The spots' suppressed users, beside the records on the same table. */
export const dynamoDbSuppressionListFactory: AdapterFactory<'suppressions'> = (context) =>
  new DynamoDbSuppressionList(table(context));
