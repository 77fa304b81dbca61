import { describe, expect, it } from 'vitest';
import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { LocalExportEvents } from '../../../local/LocalExportEvents';

const SIGNED_LINK = 'http://127.0.0.1:4010/files/exp_1/1.csv.zip?expires=1&signature=secret-signature';

function record(status: ExportRecord['status'], changes: Partial<ExportRecord> = {}): ExportRecord {
  return {
    spotId: 'sp_demo',
    exportId: 'ex_1',
    upstreamExportId: 'exp_1',
    status,
    request: { kind: 'dateRange', from: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z' },
    links: [],
    requestedAt: '2026-11-21T00:00:00.000Z',
    pollCount: 1,
    source: 'api',
    version: 3,
    ...changes,
  };
}

describe('LocalExportEvents', () => {
  it('keeps each terminal export as the EventBridge event and says one line without the links', async () => {
    // Prepare
    const lines: string[] = [];
    const events = new LocalExportEvents({
      say: (line) => lines.push(line),
      now: () => Date.parse('2026-11-21T01:00:00Z'),
    });

    // Act
    await events.publishTerminal(record(ExportStatus.COMPLETED, { links: [SIGNED_LINK] }));
    await events.publishTerminal(record(ExportStatus.FAILED, { exportId: 'ex_2', failureReason: 'boom' }));

    // Assess
    expect(events.events).toEqual([
      {
        time: '2026-11-21T01:00:00.000Z',
        source: 'openweb-exports',
        detailType: 'Export Completed',
        detail: expect.objectContaining({ exportId: 'ex_1', status: 'COMPLETED', links: [SIGNED_LINK] }),
      },
      expect.objectContaining({
        detailType: 'Export Failed',
        detail: expect.objectContaining({ failureReason: 'boom' }),
      }),
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('Export Completed: sp_demo ex_1, 1 file(s)');
    expect(lines.join('\n')).not.toContain('signature');
  });

  it('keeps Erasure Completed as the bus would have it and says one line of counts, without the user', async () => {
    // Prepare
    const lines: string[] = [];
    const events = new LocalExportEvents({ say: (line) => lines.push(line), now: () => 0 });
    const erasureId = `er_${'b'.repeat(24)}`;

    // Act
    await events.publishErasureCompleted({
      spotId: 'sp_demo',
      erasureId,
      userId: 'user-7',
      status: 'COMPLETED',
      requestedAt: '2026-11-21T00:00:00.000Z',
      updatedAt: '2026-11-21T00:01:00.000Z',
      completedAt: '2026-11-21T00:01:00.000Z',
      exportsDone: [],
      filesRead: 2,
      files: [],
      version: 4,
    });

    // Assess
    expect(events.events).toEqual([
      {
        time: '1970-01-01T00:00:00.000Z',
        source: 'openweb-exports',
        detailType: 'Erasure Completed',
        detail: {
          spotId: 'sp_demo',
          erasureId,
          filesRead: 2,
          filesRewritten: 0,
          rowsRemoved: 0,
          completedAt: '2026-11-21T00:01:00.000Z',
        },
      },
    ]);
    expect(lines).toEqual([
      `event   Erasure Completed: sp_demo ${erasureId}, 0 file(s) rewritten, 0 row(s) removed`,
    ]);
  });

  it('announces nothing for an export that is not finished', async () => {
    // Prepare
    const lines: string[] = [];
    const events = new LocalExportEvents({ say: (line) => lines.push(line) });

    // Act
    await events.publishTerminal(record(ExportStatus.PROCESSING));

    // Assess
    expect(events.events).toEqual([]);
    expect(lines).toEqual([]);
  });
});
