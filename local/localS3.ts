import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import { S3Client } from '@aws-sdk/client-s3';
import { PresignedArchiveReader } from '../lib/s3/PresignedArchiveReader';
import { LOCAL_ARCHIVE_BUCKET } from '../lib/settings/localRuntimeLayout';
import { objectVersioning, type S3rverStore } from './objectVersioning';
import { STAND_IN_CONNECTION_TIMEOUT_MS, STAND_IN_REQUEST_TIMEOUT_MS } from './standInRequestHandler';

/** The stand-in accepts requests signed with this key pair only. */
const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const LOOPBACK_HOST = '127.0.0.1';
const LOCAL_S3_REGION = 'us-east-1';
/** Noncurrent versions, beside the buckets (bucket names cannot start with `_`). */
const VERSIONS_FOLDER = '_versions';

export interface LocalS3 {
  endpoint: string;
  /** A client of the stand-in, path-style, as the archive's S3 adapter uses it. */
  client: S3Client;
  bucketName: string;
  /** The folder of the bucket's objects (s3rver's files), which the local query engine reads in place. */
  bucketDirectory: string;
  /** The bucket's reader as `/files` uses it: presigned path-style GETs, signed with the stand-in's keys. */
  archiveReader(): PresignedArchiveReader;
  close(): Promise<void>;
}

/**
 * S3's API in this process (s3rver), on loopback, the way dynalite stands in for DynamoDB:
 * the archive's S3 adapter runs against it unchanged, multipart uploads and presigned GETs
 * included, and versioning (./objectVersioning.ts). Objects live under `directory` (a temporary one, removed on close, when omitted).
 */
export async function startLocalS3(options: { directory?: string; port?: number } = {}): Promise<LocalS3> {
  const temporary =
    options.directory === undefined ? await mkdtemp(join(tmpdir(), 'openweb-s3-')) : undefined;
  const directory = options.directory ?? (temporary as string);
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: LOOPBACK_HOST,
    port: options.port ?? 0,
    directory,
    silent: true,
    // Path-style only: bucket names never become host names on loopback.
    vhostBuckets: false,
    // Created by the stand-in itself, like the table dynalite serves.
    configureBuckets: [{ name: LOCAL_ARCHIVE_BUCKET, configs: [] }],
  });
  // Versioned like the deployed bucket: overwritten and deleted objects stay as noncurrent versions.
  const internals = server as unknown as { store: S3rverStore; middleware: unknown[] };
  internals.middleware.unshift(objectVersioning(internals.store, join(directory, VERSIONS_FOLDER)));
  groupByDelimiterAtAnyDepth(internals.store as unknown as DelimitedListingStore);
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://${LOOPBACK_HOST}:${address.port}`;
  const client = new S3Client({
    endpoint,
    region: LOCAL_S3_REGION,
    forcePathStyle: true,
    credentials: LOCAL_S3_CREDENTIALS,
    // The stand-in predates S3's default checksums (aws-chunked bodies with trailers): send them only
    // where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // No bound on a whole request, as for the deployed archive's client: an upload takes what it takes.
    requestHandler: { connectionTimeout: STAND_IN_CONNECTION_TIMEOUT_MS },
  });
  // The stand-in verifies a bucket-level call (ListObjects, CreateBucket) against `/<bucket>`, while
  // the SDK signs `/<bucket>/`; S3 accepts both. Drop the trailing slash before signing.
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { path?: string };
      if (typeof request.path === 'string' && /^\/[^/]+\/$/.test(request.path))
        request.path = request.path.slice(0, -1);
      return next(args);
    },
    { step: 'build', priority: 'low', name: 'localS3BucketPath' },
  );
  return {
    endpoint,
    client,
    bucketName: LOCAL_ARCHIVE_BUCKET,
    bucketDirectory: join(directory, LOCAL_ARCHIVE_BUCKET),
    archiveReader: () =>
      new PresignedArchiveReader({
        bucketUrl: `${endpoint}/${LOCAL_ARCHIVE_BUCKET}`,
        region: LOCAL_S3_REGION,
        credentials: LOCAL_S3_CREDENTIALS,
        requestTimeoutMs: STAND_IN_REQUEST_TIMEOUT_MS,
      }),
    close: async () => {
      client.destroy();
      const http = (server as unknown as { httpServer?: { closeAllConnections?: () => void } }).httpServer;
      http?.closeAllConnections?.();
      await server.close();
      if (temporary !== undefined) await rm(temporary, { recursive: true, force: true });
    },
  };
}

interface ListingOptions {
  delimiter?: string;
  prefix?: string;
  maxKeys?: number;
  startAfter?: string;
}

interface Listing {
  objects: { key: string }[];
  commonPrefixes: string[];
  isTruncated: boolean;
}

interface DelimitedListingStore {
  listObjects(bucket: string, options: ListingOptions): Promise<Listing>;
}

/**
 * s3rver's listing with a delimiter skips every folder more than one level below the prefix, so
 * `tables/comments/` with `/` answered no `spot=…/` whose objects are under `date=…/`. S3 answers
 * each common prefix whatever the depth below it: list every key under the prefix and group them
 * as S3 does (the keys of this stand-in's buckets are few).
 */
function groupByDelimiterAtAnyDepth(store: DelimitedListingStore): void {
  const listObjects = store.listObjects.bind(store);
  store.listObjects = async (bucket, options) => {
    const { delimiter, maxKeys = Number.POSITIVE_INFINITY, ...rest } = options;
    if (delimiter === undefined || delimiter === '') return listObjects(bucket, options);
    const prefix = options.prefix ?? '';
    const every = await listObjects(bucket, { ...rest, maxKeys: Number.POSITIVE_INFINITY });
    const commonPrefixes = new Set<string>();
    const objects: Listing['objects'] = [];
    for (const object of every.objects) {
      const index = object.key.slice(prefix.length).indexOf(delimiter);
      if (index >= 0) commonPrefixes.add(object.key.slice(0, prefix.length + index + delimiter.length));
      else objects.push(object);
    }
    return {
      objects: objects.slice(0, maxKeys),
      commonPrefixes: [...commonPrefixes].sort(),
      isTruncated: objects.length > maxKeys,
    };
  };
}
