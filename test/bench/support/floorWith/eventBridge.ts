// The SDK floor plus the EventBridge client (the announcements), constructed as its adapter builds it: test/bench/coldstart.ts measures what
// this one client adds to a function's module init.
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { handler as floor } from '../sdkFloor';

const client = new EventBridgeClient({});

export const handler = async (): Promise<string> => {
  await floor();
  return client.constructor.name;
};
