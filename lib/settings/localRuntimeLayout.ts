import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from './settingsTable';

/**
 * What the local runtime (local/) and the operator CLI (cli/) both know of it: where it listens,
 * where it keeps its data (the CLI's `query` reads the archive's files in place), and the command
 * that runs the CLI, which the runtime's banner prints. Neither program owns it; neither imports
 * the other.
 */

/**
 * The command that runs the CLI, as every usage line and hint names it so it can be pasted: the
 * package is not published, so in a clone its bin `openweb-exports` is not on PATH; npx finds it.
 */
export const CLI_NAME = 'npx openweb-exports';

/** The local runtime's API on its default port: where the CLI goes unless told otherwise. */
export const DEFAULT_LOCAL_API_URL = `http://127.0.0.1:${SETTINGS.localApiPort.default}`;

/** The data dir when LOCAL_DATA_DIR is unset, relative to the project root. */
export const DEFAULT_LOCAL_DATA_DIR = SETTINGS.localDataDir.default;
/** The same, absolute. */
export const DEFAULT_LOCAL_DATA_PATH = resolve(
  fileURLToPath(new URL('../..', import.meta.url)),
  DEFAULT_LOCAL_DATA_DIR,
);
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
