// The SDK floor plus the Glue client (the archive's partitions), constructed as its adapter builds it: test/bench/coldstart.ts measures what
// this one client adds to a function's module init.
import { GlueClient } from '@aws-sdk/client-glue';
import { handler as floor } from '../sdkFloor';

const client = new GlueClient({});

export const handler = async (): Promise<string> => {
  await floor();
  return client.constructor.name;
};
