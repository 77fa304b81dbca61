import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EventBridgeExportEvents } from '../../events/EventBridgeExportEvents';
import { AWS_REQUEST_HANDLER } from '../AwsClients';
import type { AdapterContext, AdapterFactory } from '../buildDependencies';

function eventBridgeClient({ clients }: AdapterContext): EventBridgeClient {
  return clients.eventBridge ?? new EventBridgeClient({ requestHandler: AWS_REQUEST_HANDLER });
}

/** Terminal exports announced on the export bus. */
export const eventBridgeEventsFactory: AdapterFactory<'events'> = (context) =>
  new EventBridgeExportEvents({
    client: eventBridgeClient(context),
    eventBusName: context.config.resources.eventBusName,
  });

/** Finished archives announced on the export bus, naming the archive bucket. */
export const eventBridgeArchiveEventsFactory: AdapterFactory<'archiveEvents'> = (context) =>
  new EventBridgeExportEvents({
    client: eventBridgeClient(context),
    eventBusName: context.config.resources.eventBusName,
    ...(context.config.archive.bucketName !== undefined && {
      archiveBucketName: context.config.archive.bucketName,
    }),
  });

/** Completed erasures announced on the export bus. */
export const eventBridgeErasureEventsFactory: AdapterFactory<'erasureEvents'> = (context) =>
  new EventBridgeExportEvents({
    client: eventBridgeClient(context),
    eventBusName: context.config.resources.eventBusName,
  });
