// The SDK floor plus the Step Functions client (the workflows), constructed as its adapter builds it: test/bench/coldstart.ts measures what
// this one client adds to a function's module init.
import { SFNClient } from '@aws-sdk/client-sfn';
import { handler as floor } from '../sdkFloor';

const client = new SFNClient({});

export const handler = async (): Promise<string> => {
  await floor();
  return client.constructor.name;
};
