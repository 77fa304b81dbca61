import { copyFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The part of s3rver's filesystem store the versioning uses. */
export interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  existsObject(bucket: string, key: string): Promise<boolean>;
  deleteObject(bucket: string, key: string): Promise<void>;
  listObjects(
    bucket: string,
    options: { prefix?: string; maxKeys?: number },
  ): Promise<{ objects: { key: string; metadata: Record<string, string> }[] }>;
}

/** The part of a Koa context the versioning reads and answers. */
export interface VersioningContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  set(field: string, value: string): void;
  type: string;
}

export type VersioningMiddleware = (ctx: VersioningContext, next: () => Promise<unknown>) => Promise<unknown>;

/** The current version's id: `L` and its MD5, stable while it is current. */
const CURRENT_VERSION_PREFIX = 'L';
let versionSequence = 0;

/**
 * Bucket versioning for the S3 stand-in, which has none (s3rver): an object overwritten or deleted
 * without a version id is kept as a noncurrent version under `versionsDirectory`;
 * ListObjectVersions lists the current objects and those versions; DeleteObject with a version id
 * deletes that version for good (the current one too; unlike S3, no older version then becomes
 * current). Enough for what the archive does with versions: list them and delete them.
 */
export function objectVersioning(store: S3rverStore, versionsDirectory: string): VersioningMiddleware {
  const versionFolder = (bucket: string, key: string) =>
    join(versionsDirectory, bucket, Buffer.from(key, 'utf8').toString('base64url'));

  async function keepCurrent(bucket: string, key: string): Promise<void> {
    if (!(await store.existsObject(bucket, key))) return;
    const folder = versionFolder(bucket, key);
    await mkdir(folder, { recursive: true });
    versionSequence += 1;
    const versionId = `${Date.now().toString().padStart(15, '0')}-${String(versionSequence).padStart(9, '0')}`;
    await copyFile(store.getResourcePath(bucket, key, 'object'), join(folder, versionId));
  }

  async function noncurrentOf(
    bucket: string,
    key: string,
  ): Promise<{ versionId: string; size: number; at: Date }[]> {
    const folder = versionFolder(bucket, key);
    const names = await readdir(folder).catch(() => [] as string[]);
    const versions = [];
    for (const name of names.sort().reverse()) {
      const info = await stat(join(folder, name));
      versions.push({ versionId: name, size: info.size, at: info.mtime });
    }
    return versions;
  }

  async function currentId(bucket: string, key: string): Promise<string | undefined> {
    const md5 = await readFile(store.getResourcePath(bucket, key, 'object.md5'), 'utf8').catch(
      () => undefined,
    );
    if (md5 !== undefined) return `${CURRENT_VERSION_PREFIX}${md5}`;
    return (await store.existsObject(bucket, key)) ? `${CURRENT_VERSION_PREFIX}0` : undefined;
  }

  async function listVersions(bucket: string, prefix: string): Promise<string> {
    const { objects } = await store.listObjects(bucket, { prefix, maxKeys: Number.MAX_SAFE_INTEGER });
    const keys = new Set(objects.map((object) => object.key));
    const bucketFolder = join(versionsDirectory, bucket);
    for (const encoded of await readdir(bucketFolder).catch(() => [] as string[])) {
      const key = Buffer.from(encoded, 'base64url').toString('utf8');
      if (key.startsWith(prefix)) keys.add(key);
    }
    const entries: string[] = [];
    for (const key of [...keys].sort()) {
      const current = objects.find((object) => object.key === key);
      if (current !== undefined) {
        entries.push(
          version(
            key,
            (await currentId(bucket, key)) as string,
            true,
            new Date(current.metadata['last-modified'] ?? 0),
            Number(current.metadata['content-length'] ?? 0),
          ),
        );
      }
      for (const noncurrent of await noncurrentOf(bucket, key)) {
        entries.push(version(key, noncurrent.versionId, false, noncurrent.at, noncurrent.size));
      }
    }
    return (
      '<?xml version="1.0" encoding="UTF-8"?>' +
      '<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
      `<Name>${xml(bucket)}</Name><Prefix>${xml(prefix)}</Prefix><MaxKeys>${Math.max(entries.length, 1000)}</MaxKeys>` +
      `<IsTruncated>false</IsTruncated>${entries.join('')}</ListVersionsResult>`
    );
  }

  async function deleteVersion(bucket: string, key: string, versionId: string): Promise<void> {
    if (versionId === (await currentId(bucket, key))) {
      await store.deleteObject(bucket, key);
      return;
    }
    const folder = versionFolder(bucket, key);
    await rm(join(folder, versionId), { force: true });
    if ((await readdir(folder).catch(() => [])).length === 0)
      await rm(folder, { recursive: true, force: true });
  }

  return async function versioning(ctx, next) {
    const [bucket, ...rest] = ctx.path.slice(1).split('/');
    // Only signed requests: the stand-in's own authentication runs after this.
    const signed = ctx.headers.authorization !== undefined || ctx.query['X-Amz-Signature'] !== undefined;
    if (bucket === undefined || bucket === '' || !signed) return next();
    const key = rest.map((part) => decodeURIComponent(part)).join('/');
    if (key === '') {
      if (ctx.method === 'GET' && 'versions' in ctx.query) {
        const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
        ctx.type = 'application/xml';
        ctx.body = await listVersions(bucket, prefix);
        ctx.status = 200;
        return undefined;
      }
      return next();
    }
    const versionId = typeof ctx.query.versionId === 'string' ? ctx.query.versionId : undefined;
    if (ctx.method === 'DELETE' && versionId !== undefined) {
      await deleteVersion(bucket, key, versionId);
      ctx.set('x-amz-version-id', versionId);
      ctx.status = 204;
      ctx.body = null;
      return undefined;
    }
    const overwrites =
      (ctx.method === 'PUT' && !('partNumber' in ctx.query)) ||
      (ctx.method === 'POST' && 'uploadId' in ctx.query) ||
      ctx.method === 'DELETE';
    if (overwrites) await keepCurrent(bucket, key);
    return next();
  };
}

function version(key: string, versionId: string, isLatest: boolean, at: Date, size: number): string {
  return (
    `<Version><Key>${xml(key)}</Key><VersionId>${xml(versionId)}</VersionId><IsLatest>${isLatest}</IsLatest>` +
    `<LastModified>${at.toISOString()}</LastModified><Size>${size}</Size><StorageClass>STANDARD</StorageClass></Version>`
  );
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
