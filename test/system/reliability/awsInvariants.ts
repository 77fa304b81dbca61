import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { ExportEventDetailType } from '../../../lib/events/EventBridgeExportEvents';
import { WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import { windowsBetween } from '../../../lib/exports/coverage/runSchedule';
import { ArchiveStatus } from '../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { type FaultScenario, SCENARIO_SPOTS } from './FaultScenario';

const TERMINAL_DETAIL_TYPES: Partial<Record<ExportStatus, string>> = {
  [ExportStatus.COMPLETED]: ExportEventDetailType.COMPLETED,
  [ExportStatus.FAILED]: ExportEventDetailType.FAILED,
  [ExportStatus.ABORTED]: ExportEventDetailType.ABORTED,
};
const LEDGER_FROM_MS = Date.parse('2000-01-01T00:00:00Z');
const LEDGER_UNTIL_MS = Date.parse('2100-01-01T00:00:00Z');

/**
 * With AWS-side faults: every event the system owes was delivered to the bus or counted as not
 * published (`EventsNotPublished`). Owed: one per terminal export (its status's event) and one
 * per gap of the ledger, and `Export Archived` per archived export. A miss nobody counted is a
 * silent drop. (A count may exceed the misses: a gap announced in vain is no longer owed once a
 * later export covers its window.)
 */
export async function eventsDeliveredOrCounted(
  scenario: FaultScenario,
  records: readonly ExportRecord[],
): Promise<string[]> {
  const bus = scenario.eventBus;
  if (bus === undefined) return [];
  const delivered = new Set(bus.accepted.map((event) => eventKey(event.detailType, event.detail)));
  const missing: string[] = [];
  for (const record of records) {
    const detailType = TERMINAL_DETAIL_TYPES[record.status];
    if (detailType === undefined) continue;
    if (!delivered.has(eventKey(detailType, { exportId: record.exportId })))
      missing.push(`${detailType} of ${record.exportId}`);
  }
  for (const spotId of SCENARIO_SPOTS) {
    const windows = await windowsBetween(scenario.harness.coverage, spotId, LEDGER_FROM_MS, LEDGER_UNTIL_MS);
    for (const window of windows.filter((candidate) => candidate.state === WindowState.GAP)) {
      const key = eventKey(ExportEventDetailType.COVERAGE_GAP, window);
      if (!delivered.has(key)) missing.push(`Coverage Gap of ${spotId}/${window.from}..${window.until}`);
    }
  }
  const counted = scenario.harness.metrics.filter((name) => name === 'EventsNotPublished').length;
  if (missing.length > counted)
    return [
      `events: ${missing.length} owed event(s) neither delivered nor counted (${counted} counted): ${missing.join(', ')}`,
    ];
  return [];
}

/** What tells one owed event from another: the export, or the gap's spot and window. */
function eventKey(
  detailType: string,
  detail: { exportId?: unknown; spotId?: unknown; from?: unknown; until?: unknown },
): string {
  return detailType === ExportEventDetailType.COVERAGE_GAP
    ? `${detailType}|${String(detail.spotId)}|${String(detail.from)}..${String(detail.until)}`
    : `${detailType}|${String(detail.exportId)}`;
}

/**
 * With the archive on: every file an ARCHIVED export lists is in the bucket with the bytes it
 * records, whatever S3 refused on the way (a SlowDown mid-upload never leaves a short object
 * behind a record that says ARCHIVED).
 */
export async function archivedFilesStored(
  scenario: FaultScenario,
  records: readonly ExportRecord[],
): Promise<string[]> {
  const storage = scenario.archiveStorage;
  if (storage === undefined) return [];
  const violations: string[] = [];
  for (const record of records) {
    if (record.archive?.status !== ArchiveStatus.ARCHIVED) continue;
    for (const file of record.archive.files ?? []) {
      const stored = await storage.client
        .send(new HeadObjectCommand({ Bucket: storage.bucketName, Key: file.key }))
        .catch(() => undefined);
      if (stored?.ContentLength !== file.bytes)
        violations.push(
          `archive: ${record.exportId} is ARCHIVED but ${file.key} holds ${stored?.ContentLength ?? 'nothing'} of its ${file.bytes} bytes`,
        );
    }
  }
  return violations;
}
