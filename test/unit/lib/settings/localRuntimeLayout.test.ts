import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOCAL_API_URL,
  DEFAULT_LOCAL_DATA_DIR,
  DEFAULT_LOCAL_DATA_PATH,
  LOCAL_ARCHIVE_BUCKET,
  LOCAL_S3_DATA_FOLDER,
  localArchiveBucketDirectory,
} from '../../../../lib/settings/localRuntimeLayout';
import { SETTINGS } from '../../../../lib/settings/settingsTable';
import { LOCAL_PROJECT_ROOT } from '../../../../local/projectRoot';

describe('localRuntimeLayout', () => {
  it("keeps the archive bucket's objects under the S3 stand-in's folder of the data dir", () => {
    // Act / Assess
    expect(localArchiveBucketDirectory('/data')).toBe(
      join('/data', LOCAL_S3_DATA_FOLDER, LOCAL_ARCHIVE_BUCKET),
    );
  });

  it("resolves the default data dir against the project root, and points the CLI at the runtime's default port", () => {
    // Act / Assess
    expect(isAbsolute(DEFAULT_LOCAL_DATA_PATH)).toBe(true);
    expect(DEFAULT_LOCAL_DATA_PATH).toBe(join(LOCAL_PROJECT_ROOT, DEFAULT_LOCAL_DATA_DIR));
    expect(new URL(DEFAULT_LOCAL_API_URL).port).toBe(String(SETTINGS.localApiPort.default));
  });
});
