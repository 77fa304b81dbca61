import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../../lib/config';
import {
  eventBridgeArchiveEventsFactory,
  eventBridgeEventsFactory,
} from '../../../../../lib/runtime/adapterFactories/eventBridgeFactories';
import { buildDependencies } from '../../../../../lib/runtime/buildDependencies';
import { InMemoryExportMetrics } from '../../../../../local/InMemoryExportMetrics';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';

describe('eventBridgeFactories', () => {
  const client = new EventBridgeClient({ region: 'eu-west-1' });
  const eventBridge = mockClient(client);

  beforeEach(() => {
    eventBridge.reset();
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e1' }] });
  });

  const build = (env: Record<string, string>) =>
    buildDependencies(
      loadConfig(env),
      { events: eventBridgeEventsFactory, archiveEvents: eventBridgeArchiveEventsFactory },
      { metrics: new InMemoryExportMetrics(), clients: { eventBridge: client } },
    );

  it("announces on the stack's bus (EVENT_BUS_NAME), the archive's events naming the archive bucket", async () => {
    // Prepare
    const { events, archiveEvents } = build({
      EVENT_BUS_NAME: 'exports-bus',
      ARCHIVE_BUCKET_NAME: 'archive-1',
    });
    const record = exportRecordFixture({ status: 'COMPLETED' });

    // Act
    await events.publishTerminal(record);
    await archiveEvents.publishArchived(record);

    // Assess
    const entries = eventBridge
      .commandCalls(PutEventsCommand)
      .flatMap((call) => call.args[0].input.Entries ?? []);
    expect(entries.map((entry) => entry.EventBusName)).toEqual(['exports-bus', 'exports-bus']);
    expect(entries[1]?.Detail).toContain('archive-1');
  });
});
