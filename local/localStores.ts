import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LOCAL_S3_DATA_FOLDER } from '../lib/settings/localRuntimeLayout';
import { toDocumentClient } from '../lib/store/createDocumentClient';
import type { Closer } from './closers';
import { LocalRuntimeError } from './errors';
import { ensureTable, startLocalDynamoDb } from './localDynamoDb';
import { type LocalS3, startLocalS3 } from './localS3';
import { describeError } from './runtimeReports';
import { STAND_IN_REQUEST_HANDLER } from './standInRequestHandler';

/** The table's name on this machine. */
export const LOCAL_TABLE_NAME = 'openweb-exports';
/** The table lives in this folder of the data dir. */
const DYNAMODB_DATA_FOLDER = 'dynamodb';

/** dynalite (persisted under the data dir, or in memory) with the table from the shared definition. */
export async function openTable(
  dataDir: string | undefined,
  closers: Closer[],
): Promise<DynamoDBDocumentClient> {
  const path = dataDir === undefined ? undefined : join(dataDir, DYNAMODB_DATA_FOLDER);
  if (path !== undefined) mkdirSync(path, { recursive: true });
  const database = await startLocalDynamoDb(path === undefined ? {} : { path });
  closers.push(() => database.close());
  const client = new DynamoDBClient({
    endpoint: database.endpoint,
    region: 'local',
    // dynalite checks that requests are signed, not by whom.
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: STAND_IN_REQUEST_HANDLER,
  });
  closers.push(async () => client.destroy());
  try {
    await ensureTable(client, LOCAL_TABLE_NAME);
  } catch (error) {
    throw new LocalRuntimeError(
      `Could not open the table${path === undefined ? '' : ` in ${path}`} (${describeError(error)}). ` +
        'Is another local runtime using the same LOCAL_DATA_DIR?',
      { cause: error },
    );
  }
  return toDocumentClient(client);
}

/** The archive bucket in the S3 stand-in, its objects beside the table (or in a temporary folder). */
export async function openArchive(dataDir: string | undefined, closers: Closer[]): Promise<LocalS3> {
  const s3 = await startLocalS3(
    dataDir === undefined ? {} : { directory: join(dataDir, LOCAL_S3_DATA_FOLDER) },
  );
  closers.push(() => s3.close());
  return s3;
}
