import { describe, expect, it } from 'vitest';
import { exportUsageAndCost } from '../../../../lib/exports/cost/totalOfExports';
import { exportLocation, exportView, MAX_VIEW_LINK_BYTES } from '../../../../lib/http/exportView';
import { AWS_PRICE_TABLE } from '../../../../lib/settings/settingsTable';
import { exportRecordFixture } from '../../../support/exportRecordFixtures';

describe('exportView', () => {
  it('shows what a caller needs and nothing of the storage bookkeeping', () => {
    // Prepare
    const record = exportRecordFixture({
      status: 'COMPLETED',
      upstreamExportId: 'up_1',
      upstreamStatus: 'Done',
      links: ['https://files.example/1.csv.zip'],
      startedAt: '2025-01-01T00:00:01.000Z',
      completedAt: '2025-01-01T00:10:00.000Z',
      lastPolledAt: '2025-01-01T00:10:00.000Z',
      pollCount: 4,
      idempotencyKey: 'api:secret-ish-key',
      workflowExecutionName: 'ex_x',
      upstreamCreateAttemptedAt: '2025-01-01T00:00:00.500Z',
      version: 9,
    });

    // Act
    const view = exportView(record);

    // Assess
    expect(view).toEqual({
      exportId: record.exportId,
      spotId: record.spotId,
      status: 'COMPLETED',
      upstreamStatus: 'Done',
      upstreamExportId: 'up_1',
      request: record.request,
      links: ['https://files.example/1.csv.zip'],
      linkCount: 1,
      requestedAt: record.requestedAt,
      startedAt: '2025-01-01T00:00:01.000Z',
      completedAt: '2025-01-01T00:10:00.000Z',
      lastPolledAt: '2025-01-01T00:10:00.000Z',
      pollCount: 4,
      source: 'api',
      // Completed, its archive not claimed yet.
      archive: { status: 'PENDING', files: 0 },
      // What it used and cost, at the settings' price table.
      ...exportUsageAndCost(record, AWS_PRICE_TABLE),
    });
    expect(view.usage).toMatchObject({ stateTransitions: 8, taskInvocations: 6, upstreamCalls: 5 });
    expect(view.cost.totalUsd).toBeGreaterThan(0);
  });

  it('lists the first links that fit its budget, with the count of all and a truncation mark', () => {
    // Prepare: 100 links of 4,096 characters, far more than the budget holds.
    const links = Array.from(
      { length: 100 },
      (_, index) => `https://files.example/${index}?${'x'.repeat(4_060)}`,
    );
    const record = exportRecordFixture({ status: 'COMPLETED', links });

    // Act
    const view = exportView(record);

    // Assess
    const shown = view.links.length;
    expect(shown).toBeGreaterThan(0);
    expect(view.links).toEqual(links.slice(0, shown));
    // Each link counts its JSON and a separator: the shown ones fit, one more would not.
    const listBytes = (count: number) =>
      links.slice(0, count).reduce((bytes, link) => bytes + JSON.stringify(link).length + 1, 0);
    expect(listBytes(shown)).toBeLessThanOrEqual(MAX_VIEW_LINK_BYTES);
    expect(listBytes(shown + 1)).toBeGreaterThan(MAX_VIEW_LINK_BYTES);
    expect(view).toMatchObject({ linkCount: 100, linksTruncated: true });
  });

  it('leaves the truncation mark out when every link fits', () => {
    // Act
    const view = exportView(exportRecordFixture({ status: 'COMPLETED', links: ['https://files.example/1'] }));

    // Assess
    expect(view.linkCount).toBe(1);
    expect(view).not.toHaveProperty('linksTruncated');
  });

  it('shows the archive: its status, files and rows, never the run that holds it', () => {
    // Prepare
    const archived = exportRecordFixture({
      status: 'COMPLETED',
      archive: {
        status: 'ARCHIVED',
        archivedAt: '2025-01-01T00:11:00.000Z',
        files: [
          { name: 'a.csv', key: 'exports/a', bytes: 10, sha256: 'ab', rows: 7, sourceLink: 1 },
          { name: 'b.csv', key: 'exports/b', bytes: 12, sha256: 'cd', rows: 5, sourceLink: 1 },
        ],
      },
    });
    const claimed = exportRecordFixture({
      status: 'COMPLETED',
      archive: {
        status: 'PENDING',
        files: [],
        runId: 'workflow:x',
        claimedUntil: '2025-01-01T00:30:00.000Z',
      },
    });

    // Act + Assess
    expect(exportView(archived).archive).toEqual({
      status: 'ARCHIVED',
      archivedAt: '2025-01-01T00:11:00.000Z',
      files: 2,
      rows: 12,
    });
    expect(exportView(claimed).archive).toEqual({ status: 'PENDING', files: 0 });
    expect(exportView(exportRecordFixture({ status: 'ABORTED' })).archive).toMatchObject({ status: 'NONE' });
  });

  it('leaves out what has not happened yet', () => {
    // Act
    const view = exportView(exportRecordFixture());

    // Assess
    expect(Object.keys(view).sort()).toEqual(
      [
        'archive',
        'cost',
        'exportId',
        'linkCount',
        'links',
        'pollCount',
        'request',
        'requestedAt',
        'source',
        'spotId',
        'status',
        'usage',
      ].sort(),
    );
    expect(exportLocation(view.exportId)).toBe(`/exports/${view.exportId}`);
  });

  it('says why a REQUESTED export still waits for the upstream, and stops saying it once created', () => {
    // Prepare
    const waiting = exportRecordFixture({
      status: 'REQUESTED',
      createAttempts: 3,
      lastUpstreamWait: { kind: 'throttled', at: '2025-01-01T00:01:00.000Z', message: 'HTTP 429' },
      nextCreateAttemptAt: '2025-01-01T00:01:20.000Z',
    });

    // Act
    const view = exportView(waiting);
    const created = exportView({ ...waiting, status: 'PROCESSING', upstreamExportId: 'up_1' });

    // Assess
    expect(view.upstreamWait).toEqual({
      attempts: 3,
      lastErrorKind: 'throttled',
      lastErrorAt: '2025-01-01T00:01:00.000Z',
      nextAttemptAt: '2025-01-01T00:01:20.000Z',
    });
    expect(JSON.stringify(view)).not.toContain('HTTP 429');
    expect(created).not.toHaveProperty('upstreamWait');
  });
});
