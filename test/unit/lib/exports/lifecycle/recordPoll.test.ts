import { describe, expect, it } from 'vitest';
import { recordPoll } from '../../../../../lib/exports/lifecycle/recordPoll';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { IllegalTransitionError } from '../../../../../lib/exports/record/errors';
import { transitionExport } from '../../../../../lib/exports/record/transitionExport';
import { captureError } from '../../../../support/captureError';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';
import { InMemoryExportStore } from '../../../../support/inMemoryPorts';

const AT = '2026-11-01T12:00:00.000Z';
const LATER = '2026-11-01T12:00:30.000Z';

async function processing() {
  const store = new InMemoryExportStore();
  const record = await store.createExport(
    exportRecordFixture({
      status: ExportStatus.PROCESSING,
      upstreamStatus: 'processing',
      lastPolledAt: AT,
      pollCount: 1,
    }),
  );
  return { store, record };
}

describe('recordPoll', () => {
  it('writes a change of status with its links', async () => {
    // Prepare
    const { store, record } = await processing();

    // Act
    const result = await recordPoll(store, record, {
      status: ExportStatus.COMPLETED,
      upstreamStatus: 'completed',
      links: ['https://exports.example.com/1.zip'],
      observedAt: LATER,
    });

    // Assess
    expect(result.outcome).toBe('updated');
    expect(await store.getExport(record.spotId, record.exportId)).toMatchObject({
      status: ExportStatus.COMPLETED,
      links: ['https://exports.example.com/1.zip'],
    });
  });

  it('writes nothing for a poll that saw nothing new within the bookkeeping interval, and bookkeeps after it', async () => {
    // Prepare
    const { store, record } = await processing();
    const same = { status: ExportStatus.PROCESSING, upstreamStatus: 'processing' };

    // Act
    const soon = await recordPoll(
      store,
      record,
      { ...same, observedAt: LATER },
      { pollBookkeepingIntervalSeconds: 60 },
    );
    const late = await recordPoll(
      store,
      record,
      { ...same, observedAt: '2026-11-01T12:05:00.000Z' },
      { pollBookkeepingIntervalSeconds: 60 },
    );

    // Assess
    expect(soon).toEqual({ outcome: 'unchanged', record });
    expect(late.outcome).toBe('bookkept');
    expect(late.record).toMatchObject({ lastPolledAt: '2026-11-01T12:05:00.000Z', pollCount: 2 });
  });

  it('decides again on the newer record when another poll wrote first', async () => {
    // Prepare: another poller bookkept after we read the record
    const { store, record } = await processing();
    await transitionExport(store, record.spotId, record.exportId, {
      to: ExportStatus.PROCESSING,
      from: ExportStatus.PROCESSING,
      changes: { lastPolledAt: LATER, pollCount: 2 },
    });

    // Act
    const result = await recordPoll(store, record, { status: ExportStatus.COMPLETED, observedAt: LATER });

    // Assess
    expect(result.outcome).toBe('updated');
    expect(result.record).toMatchObject({ status: ExportStatus.COMPLETED, version: record.version + 2 });
  });

  it('refuses to change an export another writer finished meanwhile, naming how it ended', async () => {
    // Prepare: somebody else recorded the failure after we read the record
    const { store, record } = await processing();
    await transitionExport(store, record.spotId, record.exportId, {
      to: ExportStatus.FAILED,
      from: ExportStatus.PROCESSING,
      changes: { failureReason: 'the upstream reported failed' },
    });

    // Act
    const error = await captureError(
      recordPoll(store, record, { status: ExportStatus.COMPLETED, observedAt: LATER }),
    );

    // Assess
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect((error as IllegalTransitionError).current?.status).toBe(ExportStatus.FAILED);
  });
});
