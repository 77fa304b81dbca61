import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type AuthPacer, type AuthSlot, authPacingIntervalMs } from '../openweb/AuthPacer';
import { isConditionalCheckFailed } from './conditionalCheckFailure';
import { ExportTableAttribute } from './tableDefinition';
import { authPacingKey, EntityType } from './tableKeys';

export interface DynamoDbAuthPacerOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  requestsPerSecond: number;
  /** Epoch ms. */
  now?: () => number;
}

/**
 * Races lost to other containers before a caller is told to come back later;
 * each lost race means another caller got a slot, so this stays small.
 */
export const MAX_SLOT_RACES = 5;

const NEXT_FREE_AT = 'nextFreeAtMs';

/**
 * Fleet-wide auth pacing through one table item holding the next free slot
 * (epoch ms). Single-item conditional updates only: a slot free now is taken
 * by moving the item to now + interval; a slot soon is taken by adding one
 * interval to it, on the condition that it is still soon. Every container
 * and the local runtime share it, so auth requests stay one interval apart.
 */
export class DynamoDbAuthPacer implements AuthPacer {
  readonly intervalMs: number;
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #now: () => number;

  constructor(options: DynamoDbAuthPacerOptions) {
    this.intervalMs = authPacingIntervalMs(options.requestsPerSecond);
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#now = options.now ?? Date.now;
  }

  async acquireSlot(maxWaitMs: number): Promise<AuthSlot> {
    let nextFreeAtMs = Number.NEGATIVE_INFINITY;
    for (let race = 0; race < MAX_SLOT_RACES; race++) {
      const nowMs = this.#now();
      if (await this.#takeSlotFreeNow(nowMs)) return { granted: true, sendAtMs: nowMs };
      const soon = await this.#takeSlotSoon(nowMs, maxWaitMs);
      if (soon !== undefined) return { granted: true, sendAtMs: soon };
      nextFreeAtMs = await this.#readNextFreeAt();
      // Still in the future and beyond the wait: nothing to race for.
      if (nextFreeAtMs - this.#now() > maxWaitMs) return { granted: false, nextFreeAtMs };
    }
    return { granted: false, nextFreeAtMs: Math.max(nextFreeAtMs, this.#now() + this.intervalMs) };
  }

  async #takeSlotFreeNow(nowMs: number): Promise<boolean> {
    return this.#conditionalUpdate({
      UpdateExpression: 'SET #entityType = :entityType, #next = :next',
      ConditionExpression: 'attribute_not_exists(#next) OR #next <= :now',
      ExpressionAttributeNames: { '#entityType': ExportTableAttribute.entityType, '#next': NEXT_FREE_AT },
      ExpressionAttributeValues: {
        ':entityType': EntityType.authPacing,
        ':next': nowMs + this.intervalMs,
        ':now': nowMs,
      },
    }).then((old) => old !== undefined);
  }

  /** The slot at the stored next-free time, when it lies within `maxWaitMs`; its time, else undefined. */
  async #takeSlotSoon(nowMs: number, maxWaitMs: number): Promise<number | undefined> {
    const old = await this.#conditionalUpdate({
      UpdateExpression: 'SET #next = #next + :interval',
      ConditionExpression: '#next > :now AND #next <= :latest',
      ExpressionAttributeNames: { '#next': NEXT_FREE_AT },
      ExpressionAttributeValues: {
        ':interval': this.intervalMs,
        ':now': nowMs,
        ':latest': nowMs + maxWaitMs,
      },
      ReturnValues: 'UPDATED_OLD',
    });
    const taken = old?.[NEXT_FREE_AT];
    return typeof taken === 'number' ? taken : undefined;
  }

  async #readNextFreeAt(): Promise<number> {
    const { Item } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: authPacingKey(), ConsistentRead: true }),
    );
    const next = Item?.[NEXT_FREE_AT];
    return typeof next === 'number' ? next : Number.NEGATIVE_INFINITY;
  }

  /** The update's old attributes (`{}` when none were asked for), or undefined when the condition failed. */
  async #conditionalUpdate(
    update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>,
  ): Promise<Record<string, unknown> | undefined> {
    try {
      const { Attributes } = await this.#client.send(
        new UpdateCommand({ TableName: this.#tableName, Key: authPacingKey(), ...update }),
      );
      return Attributes ?? {};
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }
}
