import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { exportTableDefinition } from '../../../lib/store/tableDefinition';

/**
 * DynamoDB's work as the table's client sees it, counted by a middleware on the document client:
 * requests, items read, capacity units (as dynalite computes them with `ReturnConsumedCapacity`,
 * which is DynamoDB's rule: reads per 4 KB, halved when eventually consistent; writes per 1 KB), and
 * each write by the partition it lands on, the table's and each index's (an index key that changes
 * is a delete in the old partition and a put in the new one, as DynamoDB writes its indexes).
 */

/** Who made a call: the handler invocation it ran in, and the reconciler's sweep it belongs to. */
export interface CallContext {
  handler: string;
  /** Calls of one reconciler run land in one sweep. */
  sweep?: SweepWork;
}

export interface SweepWork {
  requests: number;
  itemsRead: number;
  readUnits: number;
  writes: number;
}

export interface TableWork {
  requests: number;
  /** Requests by operation (GetItem, Query, UpdateItem, …). */
  byOperation: Record<string, number>;
  reads: number;
  itemsRead: number;
  readUnits: number;
  /** Item writes to the table (a batch's items each count). */
  writes: number;
  writeUnits: number;
  /** Writes to the indexes, estimated at the item's own write units each. */
  indexWrites: number;
  indexWriteUnits: number;
}

const INDEX_KEYS = exportTableDefinition.globalSecondaryIndexes.map((index) => ({
  name: index.indexName,
  attribute: index.partitionKey.name,
}));
const TABLE_PARTITION_KEY = exportTableDefinition.partitionKey.name;
const TABLE_SORT_KEY = exportTableDefinition.sortKey.name;
const READ_OPERATIONS = new Set(['GetItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand']);

/** Items as the document client hands them over: plain values. */
type Item = Record<string, unknown>;

function emptyWork(): TableWork {
  return {
    requests: 0,
    byOperation: {},
    reads: 0,
    itemsRead: 0,
    readUnits: 0,
    writes: 0,
    writeUnits: 0,
    indexWrites: 0,
    indexWriteUnits: 0,
  };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** The low-level operation's name, whichever command (the document client's or the base client's) is seen. */
function operationOf(commandName: string): string {
  const name = commandName.replace(/Command$/, '');
  return `${['Get', 'Put', 'Update', 'Delete', 'BatchGet', 'BatchWrite'].includes(name) ? `${name}Item` : name}Command`;
}

export class TableCalls {
  readonly context = new AsyncLocalStorage<CallContext>();
  readonly total: TableWork = emptyWork();
  /** What `total` sums, by the handler it ran in (e.g. the reconciler's share). */
  readonly byHandler = new Map<string, TableWork>();
  /** Epoch ms of each write, by partition: `table:<pk>` or `<index>:<index pk>`. */
  readonly writesByPartition = new Map<string, number[]>();
  /** The index partitions each item is in, as its last write left it: `pk sk` → index → partition key. */
  readonly #indexPartitions = new Map<string, Map<string, string>>();
  #counting = true;

  /** Stops counting; the calls that follow still keep the items' index partitions up to date. */
  stop(): void {
    this.#counting = false;
  }

  /** Adds the counting middleware to the table's client. */
  watch(client: DynamoDBDocumentClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const operation = operationOf(String((context as { commandName?: string }).commandName ?? 'unknown'));
        const input = args.input as Record<string, unknown>;
        input.ReturnConsumedCapacity ??= 'TOTAL';
        // The item after an update tells which index partitions it is in now.
        const forcedNew = operation === 'UpdateItemCommand' && (input.ReturnValues ?? 'NONE') === 'NONE';
        if (forcedNew) input.ReturnValues = 'ALL_NEW';
        const result = await next(args);
        const output = result.output as Record<string, unknown>;
        this.#record(operation, input, output);
        if (forcedNew) delete output.Attributes;
        return result;
      },
      // Before the document client marshalls the input: plain items, and options it still sends.
      { step: 'initialize', name: 'benchTableCalls' },
    );
  }

  #record(operation: string, input: Record<string, unknown>, output: Record<string, unknown>): void {
    const call = this.context.getStore();
    const handler = call?.handler ?? 'other';
    const counted = this.#counting && handler !== 'bench';
    const works = counted ? [this.total, this.#workOf(handler)] : [];
    const capacity = capacityUnitsOf(output.ConsumedCapacity);
    const isRead = READ_OPERATIONS.has(operation);
    const itemsRead = isRead ? itemsReadBy(operation, output) : 0;
    for (const work of works) {
      work.requests += 1;
      work.byOperation[operation] = (work.byOperation[operation] ?? 0) + 1;
      if (isRead) {
        work.reads += 1;
        work.itemsRead += itemsRead;
        work.readUnits += capacity;
      }
    }
    if (counted && call?.sweep !== undefined) {
      call.sweep.requests += 1;
      call.sweep.itemsRead += itemsRead;
      if (isRead) call.sweep.readUnits += capacity;
    }
    if (isRead) return;
    const at = Date.now();
    const items = writtenItems(operation, input, output);
    // A batch reports its units for all its items.
    const units = Math.max(1, capacity / Math.max(1, items.length));
    for (const written of items) {
      if (counted) {
        for (const work of works) {
          work.writes += 1;
          work.writeUnits += units;
        }
        if (call?.sweep !== undefined) call.sweep.writes += 1;
        this.#noteWrite(`table:${written.pk}`, at);
      }
      const itemKey = `${written.pk} ${written.sk}`;
      const before = this.#indexPartitions.get(itemKey) ?? new Map<string, string>();
      const after = new Map<string, string>();
      if (!written.deleted && written.item !== undefined) {
        for (const index of INDEX_KEYS) {
          const partition = stringOf(written.item[index.attribute]);
          if (partition !== undefined) after.set(index.name, partition);
        }
      }
      if (written.item === undefined && !written.deleted) continue; // an update whose result is unknown
      for (const index of INDEX_KEYS) {
        const old = before.get(index.name);
        const now = after.get(index.name);
        const partitions = old === now ? (now === undefined ? [] : [now]) : [old, now];
        for (const partition of partitions) {
          if (partition === undefined || !counted) continue;
          for (const work of works) {
            work.indexWrites += 1;
            work.indexWriteUnits += units;
          }
          this.#noteWrite(`${index.name}:${partition}`, at);
        }
      }
      if (after.size === 0) this.#indexPartitions.delete(itemKey);
      else this.#indexPartitions.set(itemKey, after);
    }
  }

  #noteWrite(partition: string, at: number): void {
    const instants = this.writesByPartition.get(partition);
    if (instants === undefined) this.writesByPartition.set(partition, [at]);
    else instants.push(at);
  }

  #workOf(handler: string): TableWork {
    let work = this.byHandler.get(handler);
    if (work === undefined) {
      work = emptyWork();
      this.byHandler.set(handler, work);
    }
    return work;
  }
}

function capacityUnitsOf(consumed: unknown): number {
  if (Array.isArray(consumed))
    return consumed.reduce((sum: number, entry) => sum + capacityUnitsOf(entry), 0);
  const units = (consumed as { CapacityUnits?: number } | undefined)?.CapacityUnits;
  return typeof units === 'number' ? units : 0;
}

function itemsReadBy(operation: string, output: Record<string, unknown>): number {
  if (operation === 'GetItemCommand') return output.Item === undefined ? 0 : 1;
  if (operation === 'BatchGetItemCommand') {
    const responses = (output.Responses ?? {}) as Record<string, unknown[]>;
    return Object.values(responses).reduce((sum, items) => sum + items.length, 0);
  }
  // A query or scan reads what it examined, filtered or not.
  return Number(output.ScannedCount ?? output.Count ?? 0);
}

interface WrittenItem {
  pk: string;
  sk: string;
  /** The item as it is after the write; undefined when not known. */
  item?: Item;
  deleted: boolean;
}

function keyOf(item: Item): { pk: string; sk: string } {
  return { pk: stringOf(item[TABLE_PARTITION_KEY]) ?? '?', sk: stringOf(item[TABLE_SORT_KEY]) ?? '?' };
}

function writtenItems(
  operation: string,
  input: Record<string, unknown>,
  output: Record<string, unknown>,
): WrittenItem[] {
  switch (operation) {
    case 'PutItemCommand': {
      const item = input.Item as Item;
      return [{ ...keyOf(item), item, deleted: false }];
    }
    case 'UpdateItemCommand': {
      const attributes = output.Attributes as Item | undefined;
      const written = { ...keyOf(input.Key as Item), deleted: false };
      return [attributes === undefined ? written : { ...written, item: attributes }];
    }
    case 'DeleteItemCommand':
      return [{ ...keyOf(input.Key as Item), deleted: true }];
    case 'BatchWriteItemCommand': {
      const requests = Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>).flat() as {
        PutRequest?: { Item: Item };
        DeleteRequest?: { Key: Item };
      }[];
      return requests.map((request) =>
        request.PutRequest !== undefined
          ? { ...keyOf(request.PutRequest.Item), item: request.PutRequest.Item, deleted: false }
          : { ...keyOf(request.DeleteRequest?.Key ?? {}), deleted: true },
      );
    }
    default:
      return [];
  }
}

/** The most of these instants in any window (t − 1 s, t]. */
export function peakPerSecond(instantsMs: readonly number[]): number {
  const sorted = [...instantsMs].sort((a, b) => a - b);
  let peak = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while ((sorted[first] as number) <= (sorted[last] as number) - 1000) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}
