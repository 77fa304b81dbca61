import type { AddressInfo } from 'node:net';
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { createTableInput } from '../lib/store/tableDefinition';

export interface LocalDynamoDbOptions {
  /** Directory to persist to; in-memory when omitted. */
  path?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
}

export interface LocalDynamoDb {
  endpoint: string;
  close(): Promise<void>;
}

const LOOPBACK_HOST = '127.0.0.1';
const TABLE_ACTIVE_POLL_INTERVAL_MS = 20;
const TABLE_ACTIVE_TIMEOUT_MS = 10_000;

/** DynamoDB's API in this process (dynalite), on loopback. */
export async function startLocalDynamoDb(options: LocalDynamoDbOptions = {}): Promise<LocalDynamoDb> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, path: options.path });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${LOOPBACK_HOST}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets of clients that were not destroyed would hold the close open.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Creates the table from the shared definition unless it exists; resolves once it is ACTIVE. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  if ((await tableStatus(client, tableName)) === undefined) {
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
    } catch (error) {
      // Someone else created it first: fine, wait for it like for our own.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  const deadline = Date.now() + TABLE_ACTIVE_TIMEOUT_MS;
  while ((await tableStatus(client, tableName)) !== 'ACTIVE') {
    if (Date.now() > deadline) throw new Error(`Table ${tableName} did not become ACTIVE`);
    await new Promise((resolve) => setTimeout(resolve, TABLE_ACTIVE_POLL_INTERVAL_MS));
  }
}

async function tableStatus(client: DynamoDBClient, tableName: string): Promise<string | undefined> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return Table?.TableStatus;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}
