import { join } from 'node:path';
import { SETTINGS } from '../lib/settings/settingsTable';

/**
 * Where the local runtime keeps its data, for the runtime itself and for the tools that read it
 * without running it (`openweb-exports query` reads the archive's files in place).
 */

/** The data dir when LOCAL_DATA_DIR is unset, relative to the project root. */
export const DEFAULT_LOCAL_DATA_DIR = SETTINGS.localDataDir.default;
/** `LOCAL_DATA_DIR=memory`: nothing is written to disk, a restart starts empty. */
export const IN_MEMORY_DATA_DIR = 'memory';
/** The S3 stand-in's buckets, in the data dir. */
export const LOCAL_S3_DATA_FOLDER = 's3';
/** The bucket the local runtime archives to. */
export const LOCAL_ARCHIVE_BUCKET = 'openweb-exports-archive';

/**
 * The S3 stand-in (s3rver) keeps an object with key `a/b/name` as the file `a/b/name._S3rver_object`
 * under its bucket's folder, and writes `a/b/name._S3rver_metadata.json` once the object's bytes are
 * all written: an object whose metadata is missing is still being uploaded.
 */
export const S3RVER_OBJECT_SUFFIX = '._S3rver_object';
export const S3RVER_METADATA_SUFFIX = '._S3rver_metadata.json';

/** The folder of the archive bucket's objects in a data dir. */
export function localArchiveBucketDirectory(dataDir: string): string {
  return join(dataDir, LOCAL_S3_DATA_FOLDER, LOCAL_ARCHIVE_BUCKET);
}
