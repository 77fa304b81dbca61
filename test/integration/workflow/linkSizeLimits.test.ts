import type { PutEventsCommand, PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { BatchWriteCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractedStateMachine } from '../../../infra/extractStateMachine';
import { EventBridgeExportEvents } from '../../../lib/events/EventBridgeExportEvents';
import { startExport } from '../../../lib/exports/queue/startExport';
import type { ExportRequest } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { HandlerNames } from '../../../lib/http/routeTable';
import { handlerRuntimeFor } from '../../../lib/runtime/HandlerRuntime';
import { LocalPollingWorkflows, type WorkflowHistoryEvent } from '../../../local/LocalPollingWorkflows';
import { invokeLocalHandler, type LocalHandlers, localHandlers } from '../../../local/localHandlers';
import { apiRequests, lambdaContext } from '../../support/apiGatewayEvents';
import { dynamoDbItemBytes } from '../../support/dynamoDbItemBytes';
import { type ExportHarness, startExportHarness } from '../../support/exportHarness';
import { suiteStateMachine } from '../../system/reliability/suiteStateMachine';

// The largest link set the system is built for: 10,000 links of the longest length the
// download link policy accepts (4,096 characters), 40 MB in all.
const LINK_COUNT = 10_000;
const LINK_CHARS = 4_096;
const KB = 1024;
const MB = 1024 * KB;
// AWS's limits, none of which the local runners enforce.
const DYNAMODB_ITEM_LIMIT = 400 * KB;
const STATE_PAYLOAD_LIMIT = 256 * KB;
const EVENT_ENTRY_LIMIT = 256 * KB;
const LAMBDA_RESPONSE_LIMIT = 6 * MB;

const SPOT = 'sp_demo';
const WINDOW_HOURS = 10;
const ONE_FILE_PER_RECORD: ExportRequest = {
  kind: 'dateRange',
  from: '2026-10-30T00:00:00Z',
  until: `2026-10-30T${String(WINDOW_HOURS).padStart(2, '0')}:00:00Z`,
  maxRecordsInFile: 1,
};
// The window holds commentsPerHour × its hours comments, none deleted: one link each.
const SIMULATED_COMMENTS = { commentsPerHour: LINK_COUNT / WINDOW_HOURS, deleteShare: 0 };
// Waits and retries × this; the execution's own timeout (about 6 h deployed) scales with them and
// must outlast moving 40 MB of links through the simulator and dynalite: about 110 s here.
const WORKFLOW_TIME_SCALE = 0.005;

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** An EventBridge entry's size as PutEvents counts it: source, detail type, detail, resources, time. */
function eventEntryBytes(entry: PutEventsRequestEntry): number {
  const texts = [entry.Source, entry.DetailType, entry.Detail, ...(entry.Resources ?? [])];
  return texts.reduce((bytes, text) => bytes + Buffer.byteLength(text ?? '', 'utf8'), entry.Time ? 14 : 0);
}

describe('the largest accepted link set against AWS payload limits', () => {
  let stateMachine: ExtractedStateMachine;
  let h: ExportHarness;
  let workflows: LocalPollingWorkflows;

  beforeAll(async () => {
    stateMachine = await suiteStateMachine();
  }, 60_000);

  afterEach(async () => {
    await workflows.stopAll();
    await h.close();
  });

  it(`keeps ${LINK_COUNT} links of ${LINK_CHARS} characters within every limit, end to end`, async () => {
    // Prepare: the real state machine and handlers; the simulator answers with the maximal link set.
    const statePayloads: { state: string; bytes: number; json: string }[] = [];
    let handlers: LocalHandlers | undefined;
    const outcomes: { outcome: string; error?: unknown }[] = [];
    workflows = new LocalPollingWorkflows({
      stateMachine,
      timeScale: WORKFLOW_TIME_SCALE,
      invoke: (handler, event) => invokeLocalHandler(handlers as LocalHandlers, handler, event),
      onExecutionEnd: (_, outcome, error) => outcomes.push({ outcome, error }),
      onHistoryEvent: (_, event: WorkflowHistoryEvent) => {
        const measure = (state: string, payload: unknown) =>
          statePayloads.push({ state, bytes: jsonBytes(payload), json: JSON.stringify(payload) ?? '' });
        if ('state' in event) {
          measure(`${event.state.name} input`, event.state.input);
          if (event.state.output !== undefined) measure(`${event.state.name} output`, event.state.output);
        }
        if ('input' in event) measure('execution input', event.input);
        if ('output' in event) measure('execution output', event.output);
      },
    });
    h = await startExportHarness({
      realTime: true,
      workflows,
      simulator: { timeScale: 0.0002, ...SIMULATED_COMMENTS, downloadLinkChars: LINK_CHARS },
      client: { requestTimeoutMs: 60_000 },
    });
    handlers = localHandlers(handlerRuntimeFor(h.deps));
    const itemsWritten = recordItemsWritten(h);

    // Act
    const { record: started } = await startExport(h.deps, {
      spotId: SPOT,
      request: ONE_FILE_PER_RECORD,
      source: 'api',
    });
    await workflows.whenFinished(started.exportId);
    const final = await h.store.getExport(SPOT, started.exportId);
    const checked = await handlers[HandlerNames.CHECK_STATUS](
      apiRequests.check(SPOT, started.exportId),
      lambdaContext(),
    );
    const listed = await handlers[HandlerNames.LIST](apiRequests.list(SPOT), lambdaContext());
    const entries: PutEventsRequestEntry[] = [];
    const bus = new EventBridgeExportEvents({
      client: {
        send: async (command: PutEventsCommand) => {
          entries.push(...(command.input.Entries ?? []));
          return { FailedEntryCount: 0, Entries: [] };
        },
      } as never,
      eventBusName: 'exports',
    });
    for (const record of h.published) await bus.publishTerminal(record);
    const stored = await scanTable(h);

    // Assess: the export completed with every link, stored and read back in order.
    expect(outcomes).toEqual([{ outcome: 'succeeded', error: undefined }]);
    const upstreamLinks = h.simulator.getExport(final?.upstreamExportId ?? '')?.links ?? [];
    expect(final?.status).toBe(ExportStatus.COMPLETED);
    expect(upstreamLinks).toHaveLength(LINK_COUNT);
    expect(upstreamLinks.every((link) => link.length === LINK_CHARS)).toBe(true);
    expect(final?.links).toEqual(upstreamLinks);

    // Step Functions: every state's input and output.
    const largestState = statePayloads.reduce((largest, payload) =>
      payload.bytes > largest.bytes ? payload : largest,
    );
    // The poll task's output, which reports the files, is among the payloads measured.
    expect(statePayloads.some(({ json }) => json.includes(`"fileCount":${LINK_COUNT}`))).toBe(true);
    expect(largestState.bytes).toBeLessThan(STATE_PAYLOAD_LIMIT);

    // EventBridge: the terminal event.
    expect(entries).toHaveLength(1);
    const eventBytes = eventEntryBytes(entries[0] as PutEventsRequestEntry);
    expect(eventBytes).toBeLessThan(EVENT_ENTRY_LIMIT);
    expect(JSON.parse(entries[0]?.Detail ?? '{}')).toMatchObject({
      linkCount: LINK_COUNT,
      linksTruncated: true,
    });

    // DynamoDB: every item written, and every item the table holds at the end.
    const writtenBytes = itemsWritten.map(dynamoDbItemBytes);
    const storedBytes = stored.map(dynamoDbItemBytes);
    expect(writtenBytes.length).toBeGreaterThan(0);
    expect(Math.max(...writtenBytes)).toBeLessThan(DYNAMODB_ITEM_LIMIT);
    expect(Math.max(...storedBytes)).toBeLessThan(DYNAMODB_ITEM_LIMIT);
    expect(storedBytes.reduce((sum, bytes) => sum + bytes, 0)).toBeGreaterThan(LINK_COUNT * LINK_CHARS);

    // Lambda: the API's view of the export, alone and in a list.
    const checkedBytes = jsonBytes(checked);
    const listedBytes = jsonBytes(listed);
    expect(checkedBytes).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    expect(listedBytes).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    const view = JSON.parse((checked as { body: string }).body);
    expect(view).toMatchObject({ linkCount: LINK_COUNT, linksTruncated: true });
    expect(view.links).toEqual(upstreamLinks.slice(0, view.links.length));
    expect(view.links.length).toBeGreaterThan(0);

    console.info(
      [
        `link set: ${LINK_COUNT} × ${LINK_CHARS} chars`,
        `largest state payload: ${largestState.bytes} B (${largestState.state}) of ${statePayloads.length}`,
        `event entry: ${eventBytes} B`,
        `largest DynamoDB item written: ${Math.max(...writtenBytes)} B of ${writtenBytes.length} writes`,
        `largest DynamoDB item stored: ${Math.max(...storedBytes)} B of ${storedBytes.length} items`,
        `GET /exports/{id} response: ${checkedBytes} B (${view.links.length} links shown)`,
        `GET /exports response: ${listedBytes} B`,
      ].join('\n'),
    );
  }, 180_000);
});

/** Every item the store puts or updates (as the update leaves it), from now on. */
function recordItemsWritten(h: ExportHarness): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  const client = h.table.documentClient;
  const send = client.send.bind(client) as (command: unknown) => Promise<Record<string, unknown>>;
  client.send = (async (command: unknown) => {
    const output = await send(command);
    if (command instanceof PutCommand && command.input.Item !== undefined) items.push(command.input.Item);
    if (command instanceof UpdateCommand && output.Attributes !== undefined)
      items.push(output.Attributes as Record<string, unknown>);
    if (command instanceof BatchWriteCommand) {
      for (const requests of Object.values(command.input.RequestItems ?? {}))
        for (const request of requests) if (request.PutRequest?.Item) items.push(request.PutRequest.Item);
    }
    return output;
  }) as never;
  return items;
}

async function scanTable(h: ExportHarness): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await h.table.documentClient.send(
      new ScanCommand({ TableName: h.table.tableName, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
}
