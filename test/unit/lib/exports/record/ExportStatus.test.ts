import { describe, expect, it } from 'vitest';
import {
  ACTIVE_STATUSES,
  EXPORT_STATUSES,
  ExportStatus,
  isActive,
  isExportStatus,
  isTerminal,
  TERMINAL_STATUSES,
} from '../../../../../lib/exports/record/ExportStatus';

describe('ExportStatus', () => {
  it('uses upper-case strings equal to their names', () => {
    // Assess
    for (const [name, value] of Object.entries(ExportStatus)) expect(value).toBe(name);
  });

  it('splits every status into exactly one of queued, active and terminal', () => {
    // Act
    const split = EXPORT_STATUSES.map((status) => [
      status === ExportStatus.QUEUED,
      isActive(status),
      isTerminal(status),
    ]);

    // Assess
    expect(split.every((flags) => flags.filter(Boolean).length === 1)).toBe(true);
    expect([ExportStatus.QUEUED, ...ACTIVE_STATUSES, ...TERMINAL_STATUSES].sort()).toEqual(
      [...EXPORT_STATUSES].sort(),
    );
  });

  it('recognises its own values and nothing else', () => {
    // Assess
    expect(isExportStatus('PROCESSING')).toBe(true);
    expect(isExportStatus('processing')).toBe(false);
    expect(isExportStatus(undefined)).toBe(false);
  });
});
