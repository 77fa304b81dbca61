import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  localArchiveBucketDirectory,
  S3RVER_METADATA_SUFFIX,
  S3RVER_OBJECT_SUFFIX,
} from '../settings/localRuntimeLayout';
import { COMMENT_ROWS_KEY_PREFIX, COMMENT_ROWS_PARTITION_KEYS } from './commentRowsTable';

/** The comment rows table's files in the local runtime's archive. */
export interface LocalLakeFiles {
  /** The table's folder: `<data dir>/s3/<bucket>/tables/comments`. */
  directory: string;
  /** Absolute paths of the objects' files, in key order. */
  files: string[];
}

const [SPOT_KEY = 'spot', DATE_KEY = 'date'] = COMMENT_ROWS_PARTITION_KEYS.map((key) => key.name);

/**
 * The objects of the comment rows table in the S3 stand-in's own files, read in place: every
 * object of a `spot=…/date=…/` partition, as Athena reads a partition's location, except the
 * ones Athena treats as hidden (names starting with `_` or `.`) and the ones still being
 * uploaded (the stand-in writes an object's metadata once its bytes are complete; S3 shows an
 * object only then). An absent folder is an empty table.
 */
export async function findLocalLakeFiles(dataDir: string): Promise<LocalLakeFiles> {
  return findLakeFilesInBucket(localArchiveBucketDirectory(dataDir));
}

/** The same, in the folder of a stand-in's archive bucket wherever it is (a temporary one included). */
export async function findLakeFilesInBucket(bucketDirectory: string): Promise<LocalLakeFiles> {
  const directory = join(bucketDirectory, ...COMMENT_ROWS_KEY_PREFIX.split('/'));
  const files: string[] = [];
  for (const spot of await partitionFolders(directory, SPOT_KEY)) {
    for (const date of await partitionFolders(join(directory, spot), DATE_KEY)) {
      const folder = join(directory, spot, date);
      const names = new Set(await readdir(folder));
      for (const name of [...names].sort()) {
        if (!name.endsWith(S3RVER_OBJECT_SUFFIX)) continue;
        const keyName = name.slice(0, -S3RVER_OBJECT_SUFFIX.length);
        if (keyName.startsWith('_') || keyName.startsWith('.')) continue;
        if (!names.has(`${keyName}${S3RVER_METADATA_SUFFIX}`)) continue;
        files.push(join(folder, name));
      }
    }
  }
  return { directory, files };
}

/** The `<key>=<value>` folders of a folder, sorted; none when it does not exist. */
async function partitionFolders(directory: string, key: string): Promise<string[]> {
  let entries: { name: string; isDirectory(): boolean }[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(`${key}=`))
    .map((entry) => entry.name)
    .sort();
}
