import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { toDocumentClient } from '../../lib/store/createDocumentClient';
import { ensureTable, startLocalDynamoDb } from '../../local/localDynamoDb';

export interface DynaliteTable {
  documentClient: DynamoDBDocumentClient;
  tableName: string;
  close(): Promise<void>;
}

/** An in-memory dynalite with a fresh, uniquely named table built from the shared definition. */
export async function startDynaliteTable(): Promise<DynaliteTable> {
  const local = await startLocalDynamoDb();
  const client = new DynamoDBClient({
    endpoint: local.endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const tableName = `exports-test-${randomUUID()}`;
  await ensureTable(client, tableName);
  return {
    documentClient: toDocumentClient(client),
    tableName,
    close: async () => {
      client.destroy();
      await local.close();
    },
  };
}
