import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  EventBridgeExportEvents,
  PUT_EVENTS_MAX_SENDS,
  PUT_EVENTS_RESEND_DELAY_MS,
} from '../../../../lib/events/EventBridgeExportEvents';
import { ExportEventPublishError } from '../../../../lib/events/errors';
import { exportRecordFixture } from '../../../support/exportRecordFixtures';

describe('EventBridgeExportEvents', () => {
  const client = new EventBridgeClient({ region: 'eu-west-1' });
  const eventBridge = mockClient(client);
  const pauses: number[] = [];
  const events = new EventBridgeExportEvents({
    client,
    eventBusName: 'exports',
    sleep: async (ms) => void pauses.push(ms),
  });

  beforeEach(() => {
    pauses.length = 0;
    eventBridge.reset();
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e1' }] });
  });

  it('puts a completed export on the bus with its links', async () => {
    // Prepare
    const record = exportRecordFixture({
      status: 'COMPLETED',
      upstreamExportId: 'up_1',
      links: ['https://files.example/1.csv.zip'],
      completedAt: '2025-01-01T01:00:00.000Z',
      idempotencyKey: 'api:key',
    });

    // Act
    await events.publishTerminal(record);

    // Assess
    const entry = eventBridge.commandCalls(PutEventsCommand)[0]?.args[0].input.Entries?.[0];
    expect(entry).toMatchObject({
      EventBusName: 'exports',
      Source: 'openweb-exports',
      DetailType: 'Export Completed',
    });
    expect(JSON.parse(entry?.Detail ?? '')).toEqual({
      spotId: record.spotId,
      exportId: record.exportId,
      status: 'COMPLETED',
      links: ['https://files.example/1.csv.zip'],
      linkCount: 1,
      upstreamExportId: 'up_1',
      completedAt: '2025-01-01T01:00:00.000Z',
    });
  });

  it('keeps an export with the most and longest links under EventBridge’s 256 KB, saying how many there are', async () => {
    // Prepare: 500 links of 4,096 characters (the longest the download-link policy accepts): 2 MB.
    const links = Array.from({ length: 500 }, (_, index) =>
      `https://files.example/${String(index).padStart(4, '0')}.csv.zip?sig=`.padEnd(4096, 'x'),
    );

    // Act
    await events.publishTerminal(exportRecordFixture({ status: 'COMPLETED', links }));

    // Assess
    const entry = eventBridge.commandCalls(PutEventsCommand)[0]?.args[0].input.Entries?.[0];
    const detail = JSON.parse(entry?.Detail ?? '');
    const entryBytes = Buffer.byteLength(JSON.stringify(entry), 'utf8');
    expect(entryBytes).toBeLessThan(256 * 1024);
    expect(detail.linkCount).toBe(500);
    expect(detail.linksTruncated).toBe(true);
    expect(detail.links.length).toBeGreaterThan(20);
    expect(detail.links).toEqual(links.slice(0, detail.links.length));
  });

  it('puts Export Archived on the bus with the bucket and each file, without the source links', async () => {
    // Prepare
    const archived = new EventBridgeExportEvents({
      client,
      eventBusName: 'exports',
      archiveBucketName: 'archive-bucket',
    });
    const record = exportRecordFixture({
      status: 'COMPLETED',
      links: ['https://files.example/1.csv.zip?signature=secret'],
      archive: {
        status: 'ARCHIVED',
        archivedAt: '2025-01-01T01:05:00.000Z',
        files: [
          {
            name: 'a.csv',
            key: 'exports/spot=sp_demo/date=2025-01-01/ex/1.csv.gz',
            bytes: 10,
            sha256: 'ab'.repeat(32),
            rows: 3,
            sourceLink: 1,
          },
        ],
      },
    });

    // Act
    await archived.publishArchived(record);

    // Assess
    const entry = eventBridge.commandCalls(PutEventsCommand)[0]?.args[0].input.Entries?.[0];
    expect(entry).toMatchObject({
      EventBusName: 'exports',
      Source: 'openweb-exports',
      DetailType: 'Export Archived',
    });
    expect(JSON.parse(entry?.Detail ?? '')).toEqual({
      spotId: record.spotId,
      exportId: record.exportId,
      status: 'COMPLETED',
      bucket: 'archive-bucket',
      archivedAt: '2025-01-01T01:05:00.000Z',
      files: [
        {
          name: 'a.csv',
          key: 'exports/spot=sp_demo/date=2025-01-01/ex/1.csv.gz',
          bytes: 10,
          sha256: 'ab'.repeat(32),
          rows: 3,
        },
      ],
      fileCount: 1,
    });
  });

  it.each([
    ['FAILED', 'Export Failed'],
    ['ABORTED', 'Export Aborted'],
  ] as const)('names a %s export %j', async (status, detailType) => {
    // Act
    await events.publishTerminal(exportRecordFixture({ status, failureReason: 'why' }));

    // Assess
    expect(eventBridge).toHaveReceivedCommandWith(PutEventsCommand, {
      Entries: [
        expect.objectContaining({ DetailType: detailType, Detail: expect.stringContaining('"why"') }),
      ],
    });
  });

  it('puts Erasure Completed on the bus with what was done, never the user id, a row or a name', async () => {
    // Prepare
    const record = {
      spotId: 'sp_a',
      erasureId: `er_${'a'.repeat(24)}`,
      userId: 'user-42',
      status: 'COMPLETED',
      requestedAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:05:00.000Z',
      completedAt: '2026-11-01T00:05:00.000Z',
      exportsDone: ['ex_1'],
      filesRead: 3,
      files: [
        {
          exportId: 'ex_1',
          name: '1.csv',
          previousKey: 'exports/spot=sp_a/1.csv.gz',
          key: 'exports/spot=sp_a/1.r1.csv.gz',
          rowsRemoved: 4,
          rows: 6,
          sha256: 'f'.repeat(64),
          state: 'CLEANED',
        },
      ],
      version: 7,
    } as const;

    // Act
    await events.publishErasureCompleted({
      ...record,
      exportsDone: [...record.exportsDone],
      files: [...record.files],
    });

    // Assess
    const entry = eventBridge.commandCalls(PutEventsCommand)[0]?.args[0].input.Entries?.[0];
    expect(entry).toMatchObject({
      EventBusName: 'exports',
      Source: 'openweb-exports',
      DetailType: 'Erasure Completed',
    });
    expect(JSON.parse(entry?.Detail ?? '')).toEqual({
      spotId: 'sp_a',
      erasureId: record.erasureId,
      filesRead: 3,
      filesRewritten: 1,
      rowsRemoved: 4,
      completedAt: '2026-11-01T00:05:00.000Z',
    });
    expect(entry?.Detail).not.toContain('user-42');
  });

  it('announces nothing for an export still under way', async () => {
    // Act
    await events.publishTerminal(exportRecordFixture({ status: 'PROCESSING' }));

    // Assess
    expect(eventBridge).not.toHaveReceivedCommand(PutEventsCommand);
  });

  it('throws ExportEventPublishError when EventBridge refuses the entry every time it is sent', async () => {
    // Prepare
    eventBridge
      .on(PutEventsCommand)
      .resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'x' }] });

    // Act / Assess
    await expect(events.publishTerminal(exportRecordFixture({ status: 'COMPLETED' }))).rejects.toMatchObject({
      name: 'ExportEventPublishError',
      errorCode: 'InternalFailure',
      sends: PUT_EVENTS_MAX_SENDS,
      retryable: true,
    });
    expect(eventBridge).toHaveReceivedCommandTimes(PutEventsCommand, PUT_EVENTS_MAX_SENDS);
    await expect(events.publishTerminal(exportRecordFixture({ status: 'COMPLETED' }))).rejects.toBeInstanceOf(
      ExportEventPublishError,
    );
  });

  it('sends an entry refused for a passing reason again, after a growing pause, until it is accepted', async () => {
    // Prepare: PutEvents answers 200 with the entry refused; the SDK's retries never see it.
    const refused = {
      FailedEntryCount: 1,
      Entries: [{ ErrorCode: 'ThrottlingException', ErrorMessage: 'x' }],
    };
    eventBridge
      .on(PutEventsCommand)
      .resolvesOnce(refused)
      .resolvesOnce(refused)
      .resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e3' }] });
    const record = exportRecordFixture({ status: 'COMPLETED' });

    // Act
    await events.publishTerminal(record);

    // Assess: the same entry three times, the last one accepted.
    const sent = eventBridge.commandCalls(PutEventsCommand).map((call) => call.args[0].input.Entries);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((entries) => JSON.stringify(entries))).size).toBe(1);
    expect(pauses).toEqual([PUT_EVENTS_RESEND_DELAY_MS, 2 * PUT_EVENTS_RESEND_DELAY_MS]);
  });

  it('does not send again an entry EventBridge refuses for what it is', async () => {
    // Prepare
    eventBridge
      .on(PutEventsCommand)
      .resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'MalformedDetail', ErrorMessage: 'x' }] });

    // Act / Assess
    await expect(events.publishTerminal(exportRecordFixture({ status: 'FAILED' }))).rejects.toMatchObject({
      errorCode: 'MalformedDetail',
      sends: 1,
      retryable: false,
    });
    expect(eventBridge).toHaveReceivedCommandTimes(PutEventsCommand, 1);
    expect(pauses).toEqual([]);
  });
});
