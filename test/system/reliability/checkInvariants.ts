import { isDeepStrictEqual } from 'node:util';
import { type CoverageWindow, WindowState } from '../../../lib/exports/coverage/CoverageLedger';
import { windowsBetween } from '../../../lib/exports/coverage/runSchedule';
import { ArchiveStatus } from '../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus, isTerminal } from '../../../lib/exports/record/ExportStatus';
import { mergeIntervals } from '../../../lib/exports/time/intervals';
import { DEFAULT_TOKEN_REFRESH_MARGIN_MS } from '../../../lib/openweb/OpenWebClient';
import { archivedFilesStored, eventsDeliveredOrCounted } from './awsInvariants';
import { erasureInvariants } from './erasureInvariants';
import { type FaultScenario, SCENARIO_SPOTS } from './FaultScenario';

/** Far beyond any scenario clock: every active record the reconciler's index holds. */
const END_OF_TIME_ISO = '9999-12-31T23:59:59.999Z';
const ACTIVE_INDEX_SAMPLE = 100;
/** The simulator's default token lifetime, the upstream's 24 hours. */
const DEFAULT_SIMULATOR_TOKEN_TTL_SECONDS = 86_400;
/** The most of a token's lifetime a client may give up by renewing it early. */
const EARLY_RENEWAL_MAX_SHARE = 0.5;
const MS_PER_SECOND = 1000;
/** Every window a scenario can plan lies within these bounds. */
const LEDGER_FROM_MS = Date.parse('2000-01-01T00:00:00Z');
const LEDGER_UNTIL_MS = Date.parse('2100-01-01T00:00:00Z');

export interface InvariantOptions {
  /** Default true: the scenario drove every export to an end state, so none may still be active. */
  requireSettled?: boolean;
  /** The upstream's token lifetime in the scenario (default the simulator's 24 h). */
  tokenTtlSeconds?: number;
}

/**
 * The properties every scenario must leave behind, as a list of violations (empty when
 * all hold): no orphaned or duplicated upstream export, every record terminal or tracked,
 * no terminal record changed, every spot lock free once its export ended, and no more
 * upstream authentications than one per spot per token lifetime; and for coverage: no queued
 * export waiting on a free spot, no COMPLETED export's archive left where no sweep finds it,
 * every scheduled window covered, in flight (and tracked) or a gap with a reason, with no hole
 * behind its schedule's watermark, and no window exported twice.
 */
export async function checkInvariants(
  scenario: FaultScenario,
  options: InvariantOptions = {},
): Promise<string[]> {
  const records = await scenario.records();
  return [
    ...scenario.observedViolations,
    ...noOrphanedUpstreamExports(scenario, records),
    ...noDuplicateUpstreamCreates(scenario, records),
    ...(await everyRecordTerminalOrTracked(scenario, records, options.requireSettled ?? true)),
    ...terminalRecordsNeverChanged(scenario, records),
    ...upstreamAgreesWithTerminalRecords(scenario, records),
    ...(await spotLocksFreeAfterTerminalStates(scenario, records)),
    ...authenticationsWithinTokenLifetimes(scenario, options.tokenTtlSeconds),
    ...(await queuedExportsNotStalled(scenario, records)),
    ...(await archivesLeftToTheSweep(scenario, records)),
    ...(await scheduledWindowsAccountedFor(scenario, records)),
    ...(await restatementsKeepCoverage(scenario, records)),
    ...(await eventsDeliveredOrCounted(scenario, records)),
    ...(await archivedFilesStored(scenario, records)),
    ...(await erasureInvariants(scenario, records)),
  ];
}

/**
 * Restatement: a window once covered stays covered (a restatement never removes coverage), each of
 * its versions is an archived export of it (the newest is what `comments` reads), and no window is
 * restated twice for the same age (one restatement export per window and age completed or under
 * way; a failed attempt's retry is the only second one).
 */
async function restatementsKeepCoverage(scenario: FaultScenario, records: ExportRecord[]): Promise<string[]> {
  const byId = new Map(records.map((record) => [record.exportId, record]));
  const violations: string[] = [];
  for (const spotId of SCENARIO_SPOTS) {
    const windows = await windowsBetween(scenario.harness.coverage, spotId, LEDGER_FROM_MS, LEDGER_UNTIL_MS);
    for (const window of windows) {
      const name = `window ${window.spotId}/${window.from}..${window.until}`;
      const versions = window.versions ?? [];
      if ((versions.length > 0 || window.restatement !== undefined) && window.state !== WindowState.COVERED)
        violations.push(`uncovered: ${name} has archived versions but is ${window.state}`);
      for (const version of versions) {
        const record = byId.get(version.exportId);
        if (
          record?.status !== ExportStatus.COMPLETED ||
          (scenario.settings.archiving && record.archive?.status !== ArchiveStatus.ARCHIVED)
        )
          violations.push(`version: ${name} lists ${version.exportId}, which is not an archived export`);
      }
      const restatements = records.filter(
        (record) =>
          record.spotId === spotId &&
          record.origin?.restatement !== undefined &&
          record.request.kind === 'dateRange' &&
          record.request.from === window.from &&
          record.request.until === window.until,
      );
      const liveByAge = new Map<string, number>();
      for (const record of restatements) {
        if (record.status !== ExportStatus.COMPLETED && isTerminal(record.status)) continue;
        const age = record.origin?.restatement?.age as string;
        liveByAge.set(age, (liveByAge.get(age) ?? 0) + 1);
      }
      for (const [age, count] of liveByAge)
        if (count > 1) violations.push(`restated twice: ${name} has ${count} restatements at ${age}`);
    }
  }
  return violations;
}

/** A queued export waits only behind an active export of its spot: a free spot starts the next one. */
async function queuedExportsNotStalled(scenario: FaultScenario, records: ExportRecord[]): Promise<string[]> {
  const byId = new Map(records.map((record) => [record.exportId, record]));
  const violations: string[] = [];
  for (const record of records.filter((candidate) => candidate.status === ExportStatus.QUEUED)) {
    const lock = await scenario.harness.spotLocks.get(record.spotId);
    const holder = lock === undefined ? undefined : byId.get(lock.exportId);
    if (holder === undefined || isTerminal(holder.status))
      violations.push(`stalled: ${record.exportId} is QUEUED while ${record.spotId} is free`);
  }
  return violations;
}

/**
 * A COMPLETED export whose archive is not final is in the reconciler's archive index (so a sweep
 * after its claim lapses archives it) or has a running workflow.
 */
async function archivesLeftToTheSweep(scenario: FaultScenario, records: ExportRecord[]): Promise<string[]> {
  if (!scenario.settings.archiving) return [];
  const unfinished = records.filter(
    (record) =>
      record.status === ExportStatus.COMPLETED &&
      (record.archive === undefined || record.archive.status === ArchiveStatus.PENDING),
  );
  if (unfinished.length === 0) return [];
  const indexed = new Set(
    (await scenario.harness.store.findArchivePending(END_OF_TIME_ISO, ACTIVE_INDEX_SAMPLE)).map(
      (record) => record.exportId,
    ),
  );
  const violations: string[] = [];
  for (const record of unfinished) {
    const name = record.workflowExecutionName;
    const running = name !== undefined && (await scenario.workflows.isRunning(name));
    if (!running && !indexed.has(record.exportId))
      violations.push(
        `archive: ${record.exportId} is COMPLETED with its archive unfinished and no sweep to find it`,
      );
  }
  return violations;
}

/**
 * Every scheduled or backfill export belongs to a window of the ledger; every window is covered by a
 * COMPLETED export, a gap with its reason, or in flight with its export active or the reconciler
 * due to look at it; a schedule's windows leave no hole up to its watermark; and no window has
 * more than one export that completed or is still under way (a redelivered firing starts nothing).
 */
async function scheduledWindowsAccountedFor(
  scenario: FaultScenario,
  records: ExportRecord[],
): Promise<string[]> {
  const byId = new Map(records.map((record) => [record.exportId, record]));
  const violations: string[] = [];
  for (const spotId of SCENARIO_SPOTS) {
    const windows = await windowsBetween(scenario.harness.coverage, spotId, LEDGER_FROM_MS, LEDGER_UNTIL_MS);
    const byBounds = new Map(windows.map((window) => [`${window.from}..${window.until}`, window]));
    for (const record of records) {
      const planner = record.origin?.schedule !== undefined ? 'scheduled' : 'backfill';
      const planned = record.origin?.schedule !== undefined || record.origin?.backfillId !== undefined;
      // A restatement exports a covered window again: it is one of the window's restatement's exports.
      if (record.origin?.restatement !== undefined && record.request.kind === 'dateRange') {
        const restated = byBounds.get(`${record.request.from}..${record.request.until}`);
        const known =
          restated?.restatement?.exportIds.includes(record.exportId) === true ||
          (restated?.versions ?? []).some((version) => version.exportId === record.exportId) ||
          (isTerminal(record.status) && record.status !== ExportStatus.COMPLETED);
        if (record.spotId === spotId && !known)
          violations.push(`window: restatement ${record.exportId} belongs to no window's restatement`);
        continue;
      }
      if (record.spotId !== spotId || !planned || record.request.kind !== 'dateRange') continue;
      const window = byBounds.get(`${record.request.from}..${record.request.until}`);
      // An aborted backfill withdraws its unfinished windows: their exports end ABORTED.
      const withdrawn = planner === 'backfill' && record.status === ExportStatus.ABORTED;
      if ((window === undefined || !window.exportIds.includes(record.exportId)) && !withdrawn)
        violations.push(`window: ${planner} ${record.exportId} belongs to no window of the ledger`);
    }
    for (const window of windows) violations.push(...windowFindings(window, byId));
    violations.push(...(await holesBehindWatermarks(scenario, spotId, windows)));
  }
  return violations;
}

function windowFindings(window: CoverageWindow, byId: Map<string, ExportRecord>): string[] {
  const name = `window ${window.spotId}/${window.from}..${window.until}`;
  const exports = window.exportIds.map((exportId) => byId.get(exportId));
  // A COMPLETED export whose archive FAILED holds none of the window's data: the window is tried again.
  const live = exports.filter(
    (record) =>
      record !== undefined &&
      ((record.status === ExportStatus.COMPLETED && record.archive?.status !== ArchiveStatus.FAILED) ||
        !isTerminal(record.status)),
  );
  const findings: string[] = [];
  // The system plans a schedule's and a backfill's windows once; two API starts of one range with
  // different keys are two requests of the caller's (each key's own export is checked apart).
  if (live.length > 1 && window.source.kind !== 'api')
    findings.push(`twice: ${name} has ${live.length} exports completed or under way`);
  const current = byId.get(window.exportId);
  switch (window.state) {
    case WindowState.COVERED:
      if (!exports.some((record) => record?.status === ExportStatus.COMPLETED))
        findings.push(`covered: ${name} is COVERED with no COMPLETED export`);
      break;
    case WindowState.GAP:
      if (window.reason === undefined || window.reason === '')
        findings.push(`gap: ${name} is a gap without a reason`);
      break;
    default:
      // In flight or retrying: its export is under way, or the reconciler is due to look at it.
      if (window.dueAt === undefined && (current === undefined || isTerminal(current.status)))
        findings.push(`untracked: ${name} is ${window.state} and nothing will move it on`);
  }
  return findings;
}

async function holesBehindWatermarks(
  scenario: FaultScenario,
  spotId: string,
  windows: CoverageWindow[],
): Promise<string[]> {
  const findings: string[] = [];
  for (const watermark of await scenario.harness.coverage.listWatermarks(spotId)) {
    const own = windows.filter(
      (window) => window.source.kind === 'schedule' && window.source.schedule === watermark.schedule,
    );
    if (own.length === 0) continue;
    const merged = mergeIntervals(
      own.map((window) => ({ fromMs: Date.parse(window.from), untilMs: Date.parse(window.until) })),
    );
    const reachesWatermark = (merged.at(-1)?.untilMs ?? 0) >= Date.parse(watermark.until);
    if (merged.length > 1 || !reachesWatermark)
      findings.push(
        `hole: schedule ${watermark.schedule} of ${spotId} planned up to ${watermark.until} but its windows cover ${merged.length} separate stretch(es)`,
      );
  }
  return findings;
}

function noOrphanedUpstreamExports(scenario: FaultScenario, records: ExportRecord[]): string[] {
  const owned = new Set(records.map((record) => record.upstreamExportId));
  return scenario.harness.simulator
    .listExports()
    .filter((upstream) => !owned.has(upstream.id))
    .map((upstream) => `orphan: upstream export ${upstream.id} (${upstream.spotId}) has no record`);
}

/** Per idempotency key: at most one upstream export (windows: see scheduledWindowsAccountedFor). */
function noDuplicateUpstreamCreates(scenario: FaultScenario, records: ExportRecord[]): string[] {
  const upstreamIds = new Set(scenario.harness.simulator.listExports().map((upstream) => upstream.id));
  const created = records.filter(
    (record) => record.upstreamExportId !== undefined && upstreamIds.has(record.upstreamExportId),
  );
  const groups = new Map<string, Set<string>>();
  const add = (group: string, upstreamId: string) =>
    groups.set(group, (groups.get(group) ?? new Set()).add(upstreamId));
  for (const record of created) {
    const upstreamId = record.upstreamExportId as string;
    if (record.idempotencyKey !== undefined) add(`key ${record.spotId}/${record.idempotencyKey}`, upstreamId);
  }
  // Two records sharing one upstream export hide a duplicate create behind a single id.
  const owners = new Map<string, string[]>();
  for (const record of created) {
    const id = record.upstreamExportId as string;
    owners.set(id, [...(owners.get(id) ?? []), record.exportId]);
  }
  return [
    ...[...groups]
      .filter(([, ids]) => ids.size > 1)
      .map(([group, ids]) => `duplicate: ${ids.size} upstream exports for ${group}`),
    ...[...owners]
      .filter(([, exportIds]) => exportIds.length > 1)
      .map(([id, exportIds]) => `shared: upstream export ${id} is recorded by ${exportIds.join(', ')}`),
  ];
}

async function everyRecordTerminalOrTracked(
  scenario: FaultScenario,
  records: ExportRecord[],
  requireSettled: boolean,
): Promise<string[]> {
  const active = records.filter((record) => !isTerminal(record.status));
  if (active.length === 0) return [];
  // Active ones in the reconciler's index; queued ones in the queue it starts from.
  const indexed = new Set(
    [
      ...(await scenario.harness.store.findActiveNotPolledSince(END_OF_TIME_ISO, ACTIVE_INDEX_SAMPLE)),
      ...(await scenario.harness.store.findQueued(ACTIVE_INDEX_SAMPLE)),
    ].map((record) => record.exportId),
  );
  const violations: string[] = [];
  for (const record of active) {
    const name = record.workflowExecutionName;
    const tracked =
      (name !== undefined && (await scenario.workflows.isRunning(name))) || indexed.has(record.exportId);
    if (!tracked)
      violations.push(`untracked: ${record.exportId} is ${record.status} with nobody tracking it`);
    else if (requireSettled)
      violations.push(`unsettled: ${record.exportId} still ${record.status} after the scenario drove it`);
  }
  return violations;
}

/** What the audit saw written, and the stored record against its first terminal version. */
function terminalRecordsNeverChanged(scenario: FaultScenario, records: ExportRecord[]): string[] {
  const stored = new Map(records.map((record) => [record.exportId, record]));
  const violations = scenario.audit.violations.map((violation) => `audit: ${violation}`);
  // Where the archive runs, a COMPLETED record's archive moves on (and its version with it).
  const compared = scenario.archiveStorage === undefined ? (record: ExportRecord) => record : exceptArchive;
  for (const [exportId, terminal] of scenario.audit.terminal) {
    const now = stored.get(exportId);
    if (now === undefined || !isDeepStrictEqual(compared(now), compared(terminal))) {
      violations.push(
        `changed: terminal ${exportId} was ${terminal.status} v${terminal.version}, is ${now?.status} v${now?.version}`,
      );
    }
  }
  return violations;
}

function exceptArchive(record: ExportRecord): Omit<ExportRecord, 'archive' | 'version'> {
  const { archive: _archive, version: _version, ...rest } = record;
  return rest;
}

/** A record that ended says what the upstream says: completed with its links, or aborted upstream. */
function upstreamAgreesWithTerminalRecords(scenario: FaultScenario, records: ExportRecord[]): string[] {
  const violations: string[] = [];
  for (const record of records) {
    if (record.upstreamExportId === undefined || !isTerminal(record.status)) continue;
    const upstream = scenario.harness.simulator.getExport(record.upstreamExportId);
    if (upstream === undefined) continue;
    const mismatch =
      (record.status === ExportStatus.COMPLETED &&
        (upstream.state !== 'completed' || !isDeepStrictEqual(record.links, upstream.links))) ||
      (upstream.state === 'completed' && record.status !== ExportStatus.COMPLETED) ||
      (record.status === ExportStatus.ABORTED && upstream.state !== 'aborted');
    if (mismatch) {
      violations.push(
        `disagrees: ${record.exportId} is ${record.status}, its upstream export ${upstream.id} is ${upstream.state}`,
      );
    }
  }
  return violations;
}

/**
 * A live lock must belong to an export that is still active. One exception, reported
 * apart: a process that died between an export's terminal write and the lock release
 * leaves the lock to its lease; the next start of the spot takes it over from the
 * terminal holder (startExport's takeSpotLock), so it blocks nothing.
 */
async function spotLocksFreeAfterTerminalStates(
  scenario: FaultScenario,
  records: ExportRecord[],
): Promise<string[]> {
  const byId = new Map(records.map((record) => [record.exportId, record]));
  const violations: string[] = [];
  for (const spotId of SCENARIO_SPOTS) {
    const lock = await scenario.harness.spotLocks.get(spotId);
    if (lock === undefined) continue;
    const holder = byId.get(lock.exportId);
    if (holder !== undefined && !isTerminal(holder.status)) continue;
    const finding = `lock: ${spotId} still locked by ${lock.exportId} (${holder?.status ?? 'no record'}) until ${new Date(lock.expiresAtEpochSeconds * MS_PER_SECOND).toISOString()}`;
    if (holder !== undefined && scenario.crashes.some(diedBeforeReleasingTheLock)) {
      scenario.toleratedFindings.push(finding);
    } else {
      violations.push(finding);
    }
  }
  return violations;
}

function diedBeforeReleasingTheLock(crash: { step: string; placement: string }): boolean {
  // An abort stops the export's workflow between its terminal write and the release.
  return crash.placement === 'before'
    ? crash.step === 'spotLocks.release' || crash.step === 'workflows.stop'
    : crash.step === 'store.transition' || crash.step === 'workflows.stop';
}

/**
 * At most one token per spot per token lifetime, plus one per expiry the scenario forced.
 * A token received less than a usable lifetime after the spot's previous one is needless:
 * the previous one was still good. A client may renew early by its refresh margin, at most
 * half the lifetime. Counted where the tokens arrive (the clients), so an auth answer a
 * fault swallowed (5xx, 429, reset, unreadable or late body) is the fault's cost, not a
 * needless authentication. A token's issue time is its expiry minus the lifetime (whole
 * seconds, as the JWT carries them).
 */
function authenticationsWithinTokenLifetimes(
  scenario: FaultScenario,
  tokenTtlSeconds = DEFAULT_SIMULATOR_TOKEN_TTL_SECONDS,
): string[] {
  const ttlMs = tokenTtlSeconds * MS_PER_SECOND;
  const usableLifetimeSeconds = Math.floor(
    (ttlMs - Math.min(DEFAULT_TOKEN_REFRESH_MARGIN_MS, ttlMs * EARLY_RENEWAL_MAX_SHARE)) / MS_PER_SECOND,
  );
  const violations: string[] = [];
  for (const spotId of SCENARIO_SPOTS) {
    const issuedAt = scenario.tokensReceived
      .filter((token) => token.spotId === spotId)
      .map((token) => Math.floor(token.expiresAtMs / MS_PER_SECOND) - tokenTtlSeconds)
      .sort((a, b) => a - b);
    const needless = issuedAt.filter(
      (atSeconds, index) => index > 0 && atSeconds - (issuedAt[index - 1] as number) < usableLifetimeSeconds,
    ).length;
    const forced = scenario.forcedTokenExpiries.get(spotId) ?? 0;
    if (needless > forced) {
      violations.push(
        `auth: ${issuedAt.length} tokens received for ${spotId}, ${needless} of them while the previous ${tokenTtlSeconds} s token was still good (${forced} expiries forced)`,
      );
    }
  }
  return violations;
}
