import { describe, expect, it } from 'vitest';
import { PATH_TABLE_PARTITIONS } from '../../../../lib/archive/pathTablePartitions';
import type { TablePartitions } from '../../../../lib/archive/ports';
import { registerArchivedPartition } from '../../../../lib/archive/registerArchivedPartition';
import { exportRecordFixture } from '../../../support/exportRecordFixtures';

/** Records the partitions asked for. */
function recordingPartitions(): TablePartitions & { registered: [string, string][] } {
  const registered: [string, string][] = [];
  return {
    registered,
    register: async (spotId, date) => {
      registered.push([spotId, date]);
    },
  };
}

describe('registerArchivedPartition', () => {
  it("registers the export's spot and the day of its window's start, where its files are stored", async () => {
    // Prepare
    const partitions = recordingPartitions();
    const record = exportRecordFixture({
      spotId: 'sp_demo',
      request: { kind: 'dateRange', from: '2024-05-01T22:00:00Z', until: '2024-05-03T00:00:00Z' },
      requestedAt: '2024-06-01T08:00:00.000Z',
    });

    // Act
    await registerArchivedPartition(partitions, record);

    // Assess
    expect(partitions.registered).toEqual([['sp_demo', '2024-05-01']]);
  });

  it('registers the day a conversation export was requested', async () => {
    // Prepare
    const partitions = recordingPartitions();
    const record = exportRecordFixture({
      spotId: 'sp_demo',
      request: { kind: 'conversation', conversationId: 'sp_demo_post1' },
      requestedAt: '2024-06-01T23:30:00.000Z',
    });

    // Act
    await registerArchivedPartition(partitions, record);

    // Assess
    expect(partitions.registered).toEqual([['sp_demo', '2024-06-01']]);
  });

  it('has nothing to register where partitions are read from the keys', async () => {
    // Act
    const registering = registerArchivedPartition(PATH_TABLE_PARTITIONS, exportRecordFixture());

    // Assess
    await expect(registering).resolves.toBeUndefined();
  });
});
