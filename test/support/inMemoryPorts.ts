import {
  type BackfillRecord,
  BackfillState,
  type NewBackfillRecord,
} from '../../lib/exports/backfill/BackfillRecord';
import type { BackfillStore } from '../../lib/exports/backfill/BackfillStore';
import { BackfillAlreadyExistsError, BackfillNotFoundError } from '../../lib/exports/backfill/errors';
import {
  type CoverageLedger,
  type CoverageWindow,
  type NewCoverageWindow,
  type ScheduleWatermark,
  type WindowPage,
  WindowState,
  type WindowUpdate,
} from '../../lib/exports/coverage/CoverageLedger';
import type { ExportDependencies } from '../../lib/exports/ExportDependencies';
import { SpotBusyError } from '../../lib/exports/queue/errors';
import type { AcquireSpotLockOptions, SpotLock, SpotLocks } from '../../lib/exports/queue/SpotLock';
import { ArchiveStatus } from '../../lib/exports/record/ExportArchive';
import type { ExportChangeField, ExportRecord, NewExportRecord } from '../../lib/exports/record/ExportRecord';
import type { ExportSettings } from '../../lib/exports/record/ExportSettings';
import { DEFAULT_EXPORT_SETTINGS } from '../../lib/exports/record/ExportSettings';
import { ExportStatus, isActive } from '../../lib/exports/record/ExportStatus';
import type {
  ConditionalTransition,
  ExportPage,
  ExportStore,
  ListExportsOptions,
} from '../../lib/exports/record/ExportStore';
import {
  ExportAlreadyExistsError,
  ExportNotFoundError,
  IdempotencyConflictError,
  IdempotencyKeyReusedError,
  TransitionConflictError,
} from '../../lib/exports/record/errors';
import type {
  IdempotencyKeys,
  IdempotencyRecord,
  PutIdempotencyRecordInput,
} from '../../lib/exports/record/IdempotencyRecord';
import type { ExportMetricName } from '../../lib/exports/record/ports';
import type {
  CreatedExport,
  ExportStatusReport,
  ListedExport,
  UpstreamExports,
} from '../../lib/exports/upstream/UpstreamExports';
import type { PollingWorkflows } from '../../lib/exports/workflow/ports';
import type { PollingWorkflowInput } from '../../lib/exports/workflow/workflowContract';

const MS_PER_SECOND = 1000;

/**
 * In-memory stand-ins of the export lifecycle's ports, with the same conditional semantics as the
 * DynamoDB adapters (a refused write throws the store's typed error carrying the current record),
 * for unit tests of the use cases. The integration tests run the same use cases on dynalite.
 */
export class InMemoryExportStore implements ExportStore {
  readonly #records = new Map<string, ExportRecord>();
  /** Every write, in order: `create <id>` or `<from> → <to> <id>`. */
  readonly writes: string[] = [];

  async createExport(record: NewExportRecord): Promise<ExportRecord> {
    const key = `${record.spotId}/${record.exportId}`;
    const existing = this.#records.get(key);
    if (existing !== undefined)
      throw new ExportAlreadyExistsError(record.spotId, record.exportId, clone(existing));
    const created = { ...structuredClone(record), version: 1 };
    this.#records.set(key, created);
    this.writes.push(`create ${record.exportId}`);
    return clone(created);
  }

  async getExport(spotId: string, exportId: string): Promise<ExportRecord | undefined> {
    const record = this.#records.get(`${spotId}/${exportId}`);
    return record === undefined ? undefined : clone(record);
  }

  async transition(spotId: string, exportId: string, request: ConditionalTransition): Promise<ExportRecord> {
    const current = this.#records.get(`${spotId}/${exportId}`);
    if (current === undefined) throw new ExportNotFoundError(spotId, exportId);
    const versionMatches =
      request.expectedVersion === undefined || current.version === request.expectedVersion;
    if (!request.from.includes(current.status) || !versionMatches) {
      throw new TransitionConflictError({
        current: clone(current),
        to: request.to,
        expectedFrom: request.from,
        ...(request.expectedVersion !== undefined && { expectedVersion: request.expectedVersion }),
      });
    }
    const next: ExportRecord = {
      ...current,
      ...structuredClone(withoutUndefined(request.changes ?? {})),
      status: request.to,
      version: current.version + 1,
    };
    for (const field of request.remove ?? []) delete next[field as ExportChangeField];
    this.#records.set(`${spotId}/${exportId}`, next);
    this.writes.push(`${current.status} → ${request.to} ${exportId}`);
    return clone(next);
  }

  async listExports(spotId: string, options: ListExportsOptions): Promise<ExportPage> {
    if (options.nextToken !== undefined) throw new Error('the in-memory store lists one page only');
    const items = [...this.#records.values()]
      .filter((record) => record.spotId === spotId)
      .filter((record) => options.status === undefined || record.status === options.status)
      .sort((a, b) =>
        options.status === ExportStatus.QUEUED
          ? queueKey(a) < queueKey(b)
            ? -1
            : 1
          : a.exportId < b.exportId
            ? 1
            : -1,
      )
      .slice(0, options.limit);
    return { items: items.map(clone) };
  }

  async listSpots(limit: number): Promise<string[]> {
    return [...new Set([...this.#records.values()].map((record) => record.spotId))].sort().slice(0, limit);
  }

  async findQueued(limit: number): Promise<ExportRecord[]> {
    return [...this.#records.values()]
      .filter((record) => record.status === ExportStatus.QUEUED)
      .sort((a, b) => ((a.queue?.enqueuedAt ?? '') < (b.queue?.enqueuedAt ?? '') ? -1 : 1))
      .slice(0, limit)
      .map(clone);
  }

  async findArchivePending(beforeIso: string, limit: number): Promise<ExportRecord[]> {
    return [...this.#records.values()]
      .filter(
        (record) =>
          record.status === ExportStatus.COMPLETED &&
          (record.archive === undefined || record.archive.status === ArchiveStatus.PENDING) &&
          (record.archive?.claimedUntil ?? record.completedAt ?? '') < beforeIso,
      )
      .slice(0, limit)
      .map(clone);
  }

  async indexLegacyArchives(): Promise<number> {
    return 0;
  }

  async queuePosition(record: ExportRecord): Promise<number> {
    const mine = queueKey(record);
    return (
      [...this.#records.values()].filter(
        (other) =>
          other.spotId === record.spotId && other.status === ExportStatus.QUEUED && queueKey(other) < mine,
      ).length + 1
    );
  }

  async findActiveNotPolledSince(beforeIso: string, limit: number): Promise<ExportRecord[]> {
    return [...this.#records.values()]
      .filter((record) => isActive(record.status) && (record.lastPolledAt ?? record.requestedAt) < beforeIso)
      .sort((a, b) => ((a.lastPolledAt ?? a.requestedAt) < (b.lastPolledAt ?? b.requestedAt) ? -1 : 1))
      .slice(0, limit)
      .map(clone);
  }
}

/** The coverage ledger in memory, with the adapter's guards (export id, states, version). */
export class InMemoryCoverageLedger implements CoverageLedger {
  readonly #windows = new Map<string, CoverageWindow>();
  readonly #watermarks = new Map<string, ScheduleWatermark>();

  async claimWindow(
    window: NewCoverageWindow,
    options: { replaceGap?: boolean } = {},
  ): Promise<{ window: CoverageWindow; created: boolean }> {
    const key = windowKey(window.spotId, window.from, window.until);
    const existing = this.#windows.get(key);
    if (existing !== undefined && !(options.replaceGap && existing.state === WindowState.GAP))
      return { window: structuredClone(existing), created: false };
    const created: CoverageWindow = {
      ...structuredClone(window),
      ...(existing !== undefined && {
        exportIds: [
          ...existing.exportIds,
          ...window.exportIds.filter((id) => !existing.exportIds.includes(id)),
        ],
      }),
      version: (existing?.version ?? 0) + 1,
    };
    this.#windows.set(key, created);
    return { window: structuredClone(created), created: true };
  }

  async getWindow(spotId: string, from: string, until: string): Promise<CoverageWindow | undefined> {
    const window = this.#windows.get(windowKey(spotId, from, until));
    return window === undefined ? undefined : structuredClone(window);
  }

  async updateWindow(spotId: string, from: string, until: string, update: WindowUpdate) {
    const key = windowKey(spotId, from, until);
    const current = this.#windows.get(key);
    if (
      current === undefined ||
      (update.expectedExportId !== undefined && current.exportId !== update.expectedExportId) ||
      (update.expectedStates !== undefined && !update.expectedStates.includes(current.state)) ||
      (update.expectedVersion !== undefined && current.version !== update.expectedVersion)
    )
      return undefined;
    const next: CoverageWindow = {
      ...current,
      ...structuredClone(withoutUndefined(update.changes)),
      version: current.version + 1,
    };
    for (const field of update.remove ?? []) if (update.changes[field] === undefined) delete next[field];
    this.#windows.set(key, next);
    return structuredClone(next);
  }

  async deleteWindow(
    spotId: string,
    from: string,
    until: string,
    exportId: string,
    options: { expectedStates?: readonly WindowState[] } = {},
  ): Promise<boolean> {
    const key = windowKey(spotId, from, until);
    const current = this.#windows.get(key);
    if (current?.exportId !== exportId) return false;
    if (options.expectedStates !== undefined && !options.expectedStates.includes(current.state)) return false;
    return this.#windows.delete(key);
  }

  /** By start, then end, as the table sorts them; `nextToken` names the last window of the page before. */
  async listWindows(
    spotId: string,
    options: { from: string; until: string; limit: number; nextToken?: string },
  ): Promise<WindowPage> {
    const after =
      options.nextToken === undefined
        ? undefined
        : (JSON.parse(Buffer.from(options.nextToken, 'base64url').toString('utf8')) as [string, string]);
    const rest = [...this.#windows.values()]
      .filter((w) => w.spotId === spotId && w.from < options.until && w.until > options.from)
      .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.until < b.until ? -1 : 1))
      .filter((w) => after === undefined || w.from > after[0] || (w.from === after[0] && w.until > after[1]));
    const windows = rest.slice(0, options.limit);
    const last = windows.at(-1);
    return {
      windows: windows.map((window) => structuredClone(window)),
      ...(rest.length > windows.length &&
        last !== undefined && {
          nextToken: Buffer.from(JSON.stringify([last.from, last.until])).toString('base64url'),
        }),
    };
  }

  async findDueWindows(beforeIso: string, limit: number): Promise<CoverageWindow[]> {
    return [...this.#windows.values()]
      .filter((window) => window.dueAt !== undefined && window.dueAt < beforeIso)
      .sort((a, b) => ((a.dueAt ?? '') < (b.dueAt ?? '') ? -1 : 1))
      .slice(0, limit)
      .map((window) => structuredClone(window));
  }

  async getWatermark(spotId: string, schedule: string): Promise<ScheduleWatermark | undefined> {
    const watermark = this.#watermarks.get(`${spotId}/${schedule}`);
    return watermark === undefined ? undefined : { ...watermark };
  }

  async advanceWatermark(
    spotId: string,
    schedule: string,
    until: string,
    updatedAt: string,
    restate: readonly string[] = [],
  ) {
    const current = this.#watermarks.get(`${spotId}/${schedule}`);
    if (current !== undefined && current.until >= until) return { ...current };
    const next = { spotId, schedule, until, updatedAt, ...(restate.length > 0 && { restate: [...restate] }) };
    this.#watermarks.set(`${spotId}/${schedule}`, next);
    return { ...next };
  }

  async listWatermarks(spotId: string): Promise<ScheduleWatermark[]> {
    return [...this.#watermarks.values()].filter((w) => w.spotId === spotId).map((w) => ({ ...w }));
  }

  readonly #restatementsTaken = new Map<string, number>();

  async takeRestatementBudget(spotId: string, day: string, limit: number): Promise<boolean> {
    const taken = this.#restatementsTaken.get(`${spotId}/${day}`) ?? 0;
    if (taken >= limit) return false;
    this.#restatementsTaken.set(`${spotId}/${day}`, taken + 1);
    return true;
  }
}

function windowKey(spotId: string, from: string, until: string): string {
  return `${spotId}/${from}/${until}`;
}

export class InMemoryBackfillStore implements BackfillStore {
  readonly #records = new Map<string, BackfillRecord>();

  async create(record: NewBackfillRecord): Promise<BackfillRecord> {
    const key = `${record.spotId}/${record.backfillId}`;
    const existing = this.#records.get(key);
    if (existing !== undefined)
      throw new BackfillAlreadyExistsError(record.spotId, record.backfillId, structuredClone(existing));
    const created = { ...structuredClone(record), version: 1 };
    this.#records.set(key, created);
    return structuredClone(created);
  }

  async get(spotId: string, backfillId: string): Promise<BackfillRecord | undefined> {
    const record = this.#records.get(`${spotId}/${backfillId}`);
    return record === undefined ? undefined : structuredClone(record);
  }

  async markRecorded(spotId: string, backfillId: string): Promise<BackfillRecord> {
    return this.#change(spotId, backfillId, (record) => record.recording, { recording: false });
  }

  async markAborted(spotId: string, backfillId: string, abortedAt: string): Promise<BackfillRecord> {
    return this.#change(spotId, backfillId, (record) => record.state === BackfillState.ACTIVE, {
      state: BackfillState.ABORTED,
      abortedAt,
    });
  }

  async listForSpot(
    spotId: string,
    options: { limit: number; nextToken?: string },
  ): Promise<{ items: BackfillRecord[]; nextToken?: string }> {
    const all = [...this.#records.values()]
      .filter((record) => record.spotId === spotId)
      .sort((a, b) => (a.backfillId < b.backfillId ? 1 : -1));
    const start = options.nextToken === undefined ? 0 : Number(options.nextToken);
    const items = all.slice(start, start + options.limit).map((record) => structuredClone(record));
    return {
      items,
      ...(start + options.limit < all.length && { nextToken: String(start + options.limit) }),
    };
  }

  async findRecording(beforeIso: string, limit: number): Promise<BackfillRecord[]> {
    return [...this.#records.values()]
      .filter((record) => record.recording && record.createdAt < beforeIso)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))
      .slice(0, limit)
      .map((record) => structuredClone(record));
  }

  #change(
    spotId: string,
    backfillId: string,
    applies: (record: BackfillRecord) => boolean,
    changes: Partial<BackfillRecord>,
  ): BackfillRecord {
    const key = `${spotId}/${backfillId}`;
    const current = this.#records.get(key);
    if (current === undefined) throw new BackfillNotFoundError(spotId, backfillId);
    if (!applies(current)) return structuredClone(current);
    const next = { ...current, ...changes, version: current.version + 1 };
    this.#records.set(key, next);
    return structuredClone(next);
  }
}

export class InMemorySpotLocks implements SpotLocks {
  readonly #locks = new Map<string, SpotLock>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  async acquire(spotId: string, exportId: string, options: AcquireSpotLockOptions = {}): Promise<SpotLock> {
    const held = await this.get(spotId);
    if (held !== undefined && held.exportId !== exportId) throw new SpotBusyError(spotId, held);
    const nowMs = this.#now();
    const lock: SpotLock = {
      spotId,
      exportId,
      acquiredAt: new Date(nowMs).toISOString(),
      expiresAtEpochSeconds: Math.floor(nowMs / MS_PER_SECOND) + (options.leaseSeconds ?? 3600),
    };
    this.#locks.set(spotId, lock);
    return { ...lock };
  }

  async release(spotId: string, exportId: string): Promise<boolean> {
    if (this.#locks.get(spotId)?.exportId !== exportId) return false;
    this.#locks.delete(spotId);
    return true;
  }

  async get(spotId: string): Promise<SpotLock | undefined> {
    const lock = this.#locks.get(spotId);
    if (lock === undefined || lock.expiresAtEpochSeconds * MS_PER_SECOND <= this.#now()) return undefined;
    return { ...lock };
  }
}

export class InMemoryIdempotencyKeys implements IdempotencyKeys {
  readonly #keys = new Map<string, IdempotencyRecord>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  async put(spotId: string, key: string, input: PutIdempotencyRecordInput): Promise<IdempotencyRecord> {
    const existing = await this.get(spotId, key);
    if (existing !== undefined) {
      throw existing.requestFingerprint === input.requestFingerprint
        ? new IdempotencyConflictError(existing)
        : new IdempotencyKeyReusedError(existing);
    }
    const record = { spotId, key, ...input, createdAt: new Date(this.#now()).toISOString() };
    this.#keys.set(`${spotId}/${key}`, record);
    return { ...record };
  }

  async delete(spotId: string, key: string, exportId: string): Promise<boolean> {
    if (this.#keys.get(`${spotId}/${key}`)?.exportId !== exportId) return false;
    return this.#keys.delete(`${spotId}/${key}`);
  }

  async get(spotId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const record = this.#keys.get(`${spotId}/${key}`);
    if (record === undefined || record.expiresAtEpochSeconds * MS_PER_SECOND <= this.#now()) return undefined;
    return { ...record };
  }
}

/** One scripted answer of the upstream: a value, or an error thrown. */
export type UpstreamAnswer<T> = T | { error: unknown };

/**
 * The upstream port with answers a test scripts per operation (the last one repeats), recording
 * every call as `operation spotId [exportId]`.
 */
export class ScriptedUpstream implements UpstreamExports {
  readonly calls: string[] = [];
  readonly answers: {
    ensureAuthenticated: UpstreamAnswer<undefined>[];
    createExport: UpstreamAnswer<CreatedExport>[];
    getExportStatus: UpstreamAnswer<ExportStatusReport>[];
    abortExport: UpstreamAnswer<undefined>[];
    listExports: UpstreamAnswer<ListedExport[]>[];
  } = {
    ensureAuthenticated: [undefined],
    createExport: [{ exportId: 'up_1', statusLink: undefined, raw: {} }],
    getExportStatus: [],
    abortExport: [undefined],
    listExports: [[]],
  };

  async ensureAuthenticated(spotId: string): Promise<void> {
    this.calls.push(`ensureAuthenticated ${spotId}`);
    await this.#answer('ensureAuthenticated');
  }

  async createExport(spotId: string): Promise<CreatedExport> {
    this.calls.push(`createExport ${spotId}`);
    return this.#answer('createExport');
  }

  async getExportStatus(spotId: string, exportId: string): Promise<ExportStatusReport> {
    this.calls.push(`getExportStatus ${spotId} ${exportId}`);
    return this.#answer('getExportStatus');
  }

  async abortExport(spotId: string, exportId: string): Promise<void> {
    this.calls.push(`abortExport ${spotId} ${exportId}`);
    await this.#answer('abortExport');
  }

  async listExports(spotId: string): Promise<ListedExport[]> {
    this.calls.push(`listExports ${spotId}`);
    return this.#answer('listExports');
  }

  async #answer<K extends keyof ScriptedUpstream['answers']>(
    operation: K,
  ): Promise<Exclude<ScriptedUpstream['answers'][K][number], { error: unknown }>> {
    const script = this.answers[operation] as UpstreamAnswer<unknown>[];
    const answer = script.length > 1 ? script.shift() : script[0];
    if (answer === undefined && script.length === 0) throw new Error(`no scripted answer for ${operation}`);
    if (typeof answer === 'object' && answer !== null && 'error' in answer) throw answer.error;
    return answer as Exclude<ScriptedUpstream['answers'][K][number], { error: unknown }>;
  }
}

/** Records what the use cases asked of the workflow runner. */
export class RecordingWorkflowRunner implements PollingWorkflows {
  readonly started = new Map<string, PollingWorkflowInput>();
  readonly stopped: string[] = [];

  async start(executionName: string, input: PollingWorkflowInput): Promise<void> {
    if (!this.started.has(executionName)) this.started.set(executionName, input);
  }

  async stop(executionName: string): Promise<void> {
    this.stopped.push(executionName);
  }

  async isRunning(executionName: string): Promise<boolean> {
    return this.started.has(executionName) && !this.stopped.includes(executionName);
  }
}

export interface InMemoryLifecycle {
  deps: ExportDependencies;
  store: InMemoryExportStore;
  coverage: InMemoryCoverageLedger;
  backfills: InMemoryBackfillStore;
  gaps: CoverageWindow[];
  spotLocks: InMemorySpotLocks;
  upstream: ScriptedUpstream;
  workflows: RecordingWorkflowRunner;
  published: ExportRecord[];
  metrics: ExportMetricName[];
  clock: { nowMs: number; advance(ms: number): void };
}

/** The lifecycle's dependencies, every port in memory, on a clock the test moves. */
export function inMemoryLifecycle(settings: Partial<ExportSettings> = {}): InMemoryLifecycle {
  const clock = {
    nowMs: Date.parse('2026-11-01T12:00:00Z'),
    advance(ms: number) {
      this.nowMs += ms;
    },
  };
  const now = () => clock.nowMs;
  const store = new InMemoryExportStore();
  const coverage = new InMemoryCoverageLedger();
  const backfills = new InMemoryBackfillStore();
  const gaps: CoverageWindow[] = [];
  const spotLocks = new InMemorySpotLocks(now);
  const upstream = new ScriptedUpstream();
  const workflows = new RecordingWorkflowRunner();
  const published: ExportRecord[] = [];
  const metrics: ExportMetricName[] = [];
  return {
    deps: {
      store,
      coverage,
      backfills,
      spotLocks,
      idempotencyKeys: new InMemoryIdempotencyKeys(now),
      upstream,
      credentials: { getCredentials: async (spotId) => ({ spotId, apiKey: 'key' }) },
      workflows,
      events: {
        publishTerminal: async (record) => void published.push(record),
        publishCoverageGap: async (window) => void gaps.push(window),
      },
      metrics: { count: (name) => void metrics.push(name) },
      settings: { ...DEFAULT_EXPORT_SETTINGS, ...settings },
      now,
    },
    store,
    coverage,
    backfills,
    gaps,
    spotLocks,
    upstream,
    workflows,
    published,
    metrics,
    clock,
  };
}

function queueKey(record: ExportRecord): string {
  return `${record.queue?.priority ?? 1}#${record.queue?.enqueuedAt ?? record.requestedAt}#${record.exportId}`;
}

function clone(record: ExportRecord): ExportRecord {
  return structuredClone(record);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
