// The SDK floor plus Powertools' secrets provider (the spots' credentials), constructed as its adapter builds it: test/bench/coldstart.ts measures what
// this one client adds to a function's module init.
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { handler as floor } from '../sdkFloor';

const client = new SecretsProvider({});

export const handler = async (): Promise<string> => {
  await floor();
  return client.constructor.name;
};
