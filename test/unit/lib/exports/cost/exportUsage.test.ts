import { describe, expect, it } from 'vitest';
import {
  addUsage,
  emptyUsage,
  exportUsage,
  FIXED_TRANSITIONS,
  READS_PER_EXPORT,
  WRITES_PER_EXPORT,
} from '../../../../../lib/exports/cost/exportUsage';
import { ArchiveStatus } from '../../../../../lib/exports/record/ExportArchive';
import { ExportStatus } from '../../../../../lib/exports/record/ExportStatus';
import { exportRecordFixture } from '../../../../support/exportRecordFixtures';

const MB = 1024 * 1024;
const ASSUMPTIONS = {
  workflowTaskGb: 0.5,
  workflowTaskBilledSeconds: 1,
  startGb: 0.25,
  startBilledSeconds: 0.5,
  archiveGb: 2,
  archiveBilledSecondsPerMb: 0.1,
};

describe('exportUsage', () => {
  it('counts nothing for an export still queued', () => {
    // Act / Assess
    expect(exportUsage(exportRecordFixture({ status: ExportStatus.QUEUED }), ASSUMPTIONS)).toEqual(
      emptyUsage(),
    );
  });

  it('counts the start only for an export refused before any create was sent', () => {
    // Act
    const usage = exportUsage(
      exportRecordFixture({ status: ExportStatus.FAILED, createAttempts: 0, pollCount: 0 }),
      ASSUMPTIONS,
    );

    // Assess
    expect(usage.stateTransitions).toBe(0);
    expect(usage.taskInvocations).toBe(1);
    expect(usage.upstreamCalls).toBe(0);
    expect(usage.billedGbSeconds).toBeCloseTo(0.25 * 0.5);
    expect(usage.archiveFiles).toBe(0);
  });

  it('counts retried creates and polls, and bills an archive at least a second', () => {
    // Act
    const usage = exportUsage(
      exportRecordFixture({
        status: ExportStatus.COMPLETED,
        upstreamExportId: 'up_1',
        createAttempts: 2,
        pollCount: 3,
        archive: { status: ArchiveStatus.ARCHIVED, files: [], fileCount: 1, bytes: MB },
      }),
      ASSUMPTIONS,
    );

    // Assess
    expect(usage).toEqual({
      stateTransitions: 2 + 3 + FIXED_TRANSITIONS + 1,
      taskInvocations: 1 + 2 + 3 + 1,
      billedGbSeconds: 0.25 * 0.5 + 5 * 0.5 * 1 + 2 * 1, // 1 MB takes 0.1 s, billed 1 s
      upstreamCalls: 5,
      tableReads: READS_PER_EXPORT + 2 * 3,
      tableWrites: WRITES_PER_EXPORT + 3 + 2,
      archiveBytes: MB,
      archiveFiles: 2,
    });
  });

  it('takes one create from an upstream id on records older than the attempt count', () => {
    // Act
    const usage = exportUsage(
      exportRecordFixture({
        status: ExportStatus.COMPLETED,
        upstreamExportId: 'up_1',
        createAttempts: undefined,
        pollCount: 0,
      }),
      ASSUMPTIONS,
    );

    // Assess
    expect(usage.upstreamCalls).toBe(1);
  });

  it('adds usages count by count', () => {
    // Prepare
    const one = exportUsage(
      exportRecordFixture({ status: ExportStatus.COMPLETED, createAttempts: 1, pollCount: 2 }),
      ASSUMPTIONS,
    );

    // Act
    const two = addUsage(one, one);

    // Assess
    expect(two.upstreamCalls).toBe(2 * one.upstreamCalls);
    expect(two.tableWrites).toBe(2 * one.tableWrites);
    expect(addUsage(one, emptyUsage())).toEqual(one);
  });
});
