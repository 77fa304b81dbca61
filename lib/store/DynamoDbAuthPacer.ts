import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { UpstreamAuthPacedError } from '../exports/upstream/errors';
import { AUTH_PACER_MAX_WAIT_MS, type AuthPacer, authIntervalMs, MS_PER_SECOND } from '../openweb/AuthPacer';
import { isConditionalCheckFailed } from './conditionalCheckFailure';
import { ExportTableAttribute } from './tableDefinition';
import { authPacingKey, EntityType } from './tableKeys';

export interface DynamoDbAuthPacerOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  requestsPerSecond: number;
  maxWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Late requests give their slot up only when the upstream's limit spaces requests at least this far apart. */
const LATE_CHECK_MIN_LIMIT_INTERVAL_MS = 200;

/** Reservations that lost a race to another container (or were left too late) before this one gives up for now. */
const CONTENDED_RESERVATION_MAX_ATTEMPTS = 8;

/**
 * Fleet-wide auth pacing on one table item holding the next free slot: a reservation is a
 * conditional write moving it one interval on from the slot it read, so two containers
 * never get the same slot (single-item conditional writes only, no transactions).
 */
export class DynamoDbAuthPacer implements AuthPacer {
  readonly intervalMs: number;
  /** How late a request may leave after its slot: the headroom of the spacing over the limit's own. */
  readonly #slackMs: number;
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: DynamoDbAuthPacerOptions) {
    this.intervalMs = authIntervalMs(options.requestsPerSecond);
    const limitIntervalMs = MS_PER_SECOND / options.requestsPerSecond;
    // At a few requests per second or more, timers and the network jitter more than the spacing
    // itself: a late request is sent as it is.
    this.#slackMs =
      limitIntervalMs >= LATE_CHECK_MIN_LIMIT_INTERVAL_MS
        ? Math.max(0, this.intervalMs - Math.floor(limitIntervalMs))
        : Number.POSITIVE_INFINITY;
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#maxWaitMs = options.maxWaitMs ?? AUTH_PACER_MAX_WAIT_MS;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async acquire(spotId: string): Promise<void> {
    for (let attempt = 1; attempt <= CONTENDED_RESERVATION_MAX_ATTEMPTS; attempt++) {
      const seenMs = await this.#nextFreeAtMs();
      const nowMs = this.#now();
      const slotMs = Math.max(nowMs, seenMs ?? 0);
      if (slotMs - nowMs > this.#maxWaitMs) throw new UpstreamAuthPacedError(spotId, slotMs - nowMs);
      if (await this.#moveNextFree(seenMs, slotMs + this.intervalMs)) {
        if (slotMs > nowMs) await this.#sleep(slotMs - nowMs);
        // Sent later than the headroom allows (a slow reservation, a busy or thawed process), this
        // request would arrive less than a limit's interval before the next slot's: it gives its
        // slot up and reserves another, so lateness never compresses the fleet's spacing.
        if (this.#now() - slotMs <= this.#slackMs) return;
      }
    }
    // Heavily contended: the slots are being taken as fast as they come; try again in one interval.
    throw new UpstreamAuthPacedError(spotId, this.intervalMs);
  }

  async holdUntil(untilMs: number): Promise<void> {
    await this.#client
      .send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: authPacingKey(),
          UpdateExpression: 'SET #entityType = :entityType, #nextFreeAtMs = :until',
          ConditionExpression: 'attribute_not_exists(#nextFreeAtMs) OR #nextFreeAtMs < :until',
          ExpressionAttributeNames: {
            '#entityType': ExportTableAttribute.entityType,
            '#nextFreeAtMs': 'nextFreeAtMs',
          },
          ExpressionAttributeValues: { ':entityType': EntityType.authPacing, ':until': untilMs },
        }),
      )
      .catch((error: unknown) => {
        // A later hold (or reservations past it) already stands.
        if (!isConditionalCheckFailed(error)) throw error;
      });
  }

  async #nextFreeAtMs(): Promise<number | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: authPacingKey(), ConsistentRead: true }),
    );
    const value = Item?.nextFreeAtMs;
    return typeof value === 'number' ? value : undefined;
  }

  /** Moves the next free slot from what we read to `nextMs`; false when another container moved it first. */
  async #moveNextFree(seenMs: number | undefined, nextMs: number): Promise<boolean> {
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: authPacingKey(),
          UpdateExpression: 'SET #entityType = :entityType, #nextFreeAtMs = :next',
          ConditionExpression:
            seenMs === undefined ? 'attribute_not_exists(#nextFreeAtMs)' : '#nextFreeAtMs = :seen',
          ExpressionAttributeNames: {
            '#entityType': ExportTableAttribute.entityType,
            '#nextFreeAtMs': 'nextFreeAtMs',
          },
          ExpressionAttributeValues: {
            ':entityType': EntityType.authPacing,
            ':next': nextMs,
            ...(seenMs !== undefined && { ':seen': seenMs }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}
