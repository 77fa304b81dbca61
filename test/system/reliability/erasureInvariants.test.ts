import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ErasureStatus } from '../../../lib/exports/erasure/ErasureRecord';
import { S3ArchiveWriter } from '../../../lib/s3/S3ArchiveWriter';
import { DynamoDbErasureStore } from '../../../lib/store/DynamoDbErasureStore';
import { archivedExport } from './erasureCrashSweeps';
import { erasureInvariants } from './erasureInvariants';
import { erasuresOf, finishErasures, requestErasuresOfArchivedUsers } from './erasureSteps';
import { FaultScenario } from './FaultScenario';

describe('erasureInvariants', () => {
  let scenario: FaultScenario;

  afterEach(async () => {
    await scenario.close();
  });

  async function erasureStore(): Promise<DynamoDbErasureStore> {
    const { documentClient, tableName } = scenario.harness.table;
    return new DynamoDbErasureStore({ client: documentClient, tableName });
  }

  it('finds nothing once an erasure of an archived user ran to its end', async () => {
    // Prepare
    scenario = await FaultScenario.start({ seed: 1, archiving: true });
    await archivedExport(scenario);
    await requestErasuresOfArchivedUsers(scenario, 1);

    // Act
    await finishErasures(scenario);
    const violations = await erasureInvariants(scenario, await scenario.records());

    // Assess
    const [erasure] = await erasuresOf(scenario);
    expect(erasure).toMatchObject({ status: ErasureStatus.COMPLETED });
    expect(erasure?.files.length).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });

  it('reports an erasure left RUNNING, and one COMPLETED while a file still holds its user', async () => {
    // Prepare: an erasure asked for and never run, then marked COMPLETED without erasing anything.
    scenario = await FaultScenario.start({ seed: 1, archiving: true });
    await archivedExport(scenario);
    await requestErasuresOfArchivedUsers(scenario, 1);
    const running = await erasureInvariants(scenario, await scenario.records());
    const [erasure] = await erasuresOf(scenario);
    const erasures = await erasureStore();
    await erasures.save({ ...(erasure as NonNullable<typeof erasure>), status: ErasureStatus.COMPLETED });

    // Act
    const completed = await erasureInvariants(scenario, await scenario.records());

    // Assess
    expect(running).toEqual([
      `erasure: erasure ${erasure?.erasureId} of sp_demo is still RUNNING after the drive`,
    ]);
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatch(
      new RegExp(
        `^erasure: erasure ${erasure?.erasureId} of sp_demo COMPLETED but .+ holds \\d+ row\\(s\\) of its user$`,
      ),
    );
  });

  it('reports a file whose bytes, checksum and rows are not what its manifest says', async () => {
    // Prepare: an archived file replaced by another of one record.
    scenario = await FaultScenario.start({ seed: 1, archiving: true });
    await archivedExport(scenario);
    const [record] = await scenario.records();
    const file = record?.archive?.files[0];
    const storage = scenario.archiveStorage as NonNullable<typeof scenario.archiveStorage>;
    await new S3ArchiveWriter({ client: storage.client, bucketName: storage.bucketName }).put(
      file?.key as string,
      Readable.from([gzipSync('id,user_id\n1,user-1\n')]),
      { contentType: 'application/gzip' },
    );

    // Act
    const violations = await erasureInvariants(scenario, await scenario.records());

    // Assess
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(
      new RegExp(
        `^manifest: ${record?.exportId} \\(sp_demo\\) says ${file?.key} is .*"rows":${file?.rows}.*, the bucket holds .*"rows":1}$`,
      ),
    );
  });
});
