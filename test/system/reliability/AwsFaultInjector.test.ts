import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBridgeExportEvents } from '../../../lib/events/EventBridgeExportEvents';
import { type DynaliteTable, startDynaliteTable } from '../../support/dynalite';
import { exportRecordFixture } from '../../support/exportRecordFixtures';
import {
  AwsFaultInjector,
  DYNAMODB_READS,
  DYNAMODB_THROTTLING,
  EVENTBRIDGE_THROTTLING,
} from './AwsFaultInjector';
import { EventBusStandIn, withoutRetryDelays } from './awsStandIns';

const ALWAYS = () => 0;

describe('AwsFaultInjector', () => {
  let table: DynaliteTable | undefined;
  afterEach(async () => {
    await table?.close();
    table = undefined;
  });

  it("refuses the system's calls with DynamoDB's own error once the SDK's attempts are spent, never the suite's", async () => {
    // Prepare: every read attempt refused.
    table = await startDynaliteTable();
    const { documentClient } = table;
    const injector = new AwsFaultInjector(ALWAYS, [
      { service: 'DynamoDB', operations: DYNAMODB_READS, refusals: [DYNAMODB_THROTTLING], rate: 1 },
    ]);
    injector.attach(documentClient, 'DynamoDB');
    withoutRetryDelays(documentClient);
    const read = new GetCommand({ TableName: table.tableName, Key: { pk: 'SPOT#a', sk: 'EXPORT#b' } });

    // Act
    const refused = await injector.within(() => documentClient.send(read)).catch((error) => error);
    const outside = await documentClient.send(read);

    // Assess: the SDK tried every attempt, and gave up with the exception class it deserialized.
    expect(refused).toMatchObject({ name: 'ThrottlingException', $fault: 'client' });
    expect(refused.$metadata.attempts).toBeGreaterThan(1);
    expect(injector.refused.get('DynamoDB ThrottlingException')).toBe(refused.$metadata.attempts);
    expect(outside.Item).toBeUndefined();
  });

  it('refuses a burst of attempts in a row, then nothing once lifted', async () => {
    // Prepare: the first attempt starts a burst of 3; nothing is refused on its own.
    const draws = [0, 0.99, 0.99];
    const injector = new AwsFaultInjector(
      () => draws.shift() ?? 0.99,
      [
        {
          service: 'SFN',
          operations: new Set(['StartExecution']),
          refusals: [DYNAMODB_THROTTLING],
          rate: 0,
          burstRate: 0.5,
          maxBurst: 3,
        },
      ],
    );

    // Act
    const judged = await injector.within(async () =>
      Array.from({ length: 4 }, () => injector.refusalNow('SFN', 'StartExecution')?.code),
    );
    injector.lift();
    const afterLift = await injector.within(async () => injector.refusalNow('SFN', 'StartExecution'));

    // Assess
    expect(judged).toEqual(['ThrottlingException', 'ThrottlingException', 'ThrottlingException', undefined]);
    expect(afterLift).toBeUndefined();
  });

  it('lets the stand-in bus refuse entries in an answer of 200, which the events adapter sends again', async () => {
    // Prepare: the first entry refused, the second accepted.
    const refusals = [EVENTBRIDGE_THROTTLING, undefined];
    const bus = new EventBusStandIn(() => refusals.shift());
    const events = new EventBridgeExportEvents({
      client: bus.client,
      eventBusName: 'exports',
      sleep: async () => {},
    });
    const record = exportRecordFixture({ status: 'COMPLETED' });

    // Act
    await events.publishTerminal(record);

    // Assess
    expect(bus.refusedEntries.get('ThrottlingException')).toBe(1);
    expect(bus.accepted).toEqual([
      expect.objectContaining({
        detailType: 'Export Completed',
        detail: expect.objectContaining({ exportId: record.exportId }),
      }),
    ]);
  });
});
