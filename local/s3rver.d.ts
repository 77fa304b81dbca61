// s3rver ships no types; only what localS3.ts uses.
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    /** Where buckets and objects are kept. */
    directory?: string;
    silent?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs: unknown[] }[];
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  export = S3rver;
}
