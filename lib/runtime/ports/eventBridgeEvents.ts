import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EventBridgeExportEvents } from '../../events/EventBridgeExportEvents';
import { AWS_REQUEST_HANDLER } from '../AwsClients';
import type { PortFactory } from '../buildExportDependencies';

/** Terminal exports announced on the export bus. */
export const eventBridgeEvents: PortFactory<'events'> = ({ config, clients }) =>
  new EventBridgeExportEvents({
    client: clients.eventBridge ?? new EventBridgeClient({ requestHandler: AWS_REQUEST_HANDLER }),
    eventBusName: config.resources.eventBusName,
  });
