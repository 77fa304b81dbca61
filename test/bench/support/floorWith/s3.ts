// The SDK floor plus the S3 client (the archive's uploads), constructed as its adapter builds it: test/bench/coldstart.ts measures what
// this one client adds to a function's module init.
import { S3Client } from '@aws-sdk/client-s3';
import { handler as floor } from '../sdkFloor';

const client = new S3Client({});

export const handler = async (): Promise<string> => {
  await floor();
  return client.constructor.name;
};
