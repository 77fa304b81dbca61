import type { ErasureRecord, NewErasureRecord } from '../../../../../lib/exports/erasure/ErasureRecord';
import type { ErasureWorkflowInput } from '../../../../../lib/exports/erasure/erasureWorkflowContract';
import { ErasureAlreadyExistsError, ErasureChangedError } from '../../../../../lib/exports/erasure/errors';
import type {
  ErasureStore,
  ErasureWorkflows,
  SuppressionList,
} from '../../../../../lib/exports/erasure/ports';

/** Erasure records in memory, with the table's version check. */
export class InMemoryErasureStore implements ErasureStore {
  readonly records = new Map<string, ErasureRecord>();

  async create(record: NewErasureRecord): Promise<ErasureRecord> {
    const existing = this.records.get(record.erasureId);
    if (existing !== undefined) throw new ErasureAlreadyExistsError(existing);
    const created = { ...record, version: 1 };
    this.records.set(record.erasureId, created);
    return created;
  }

  async get(_spotId: string, erasureId: string): Promise<ErasureRecord | undefined> {
    return this.records.get(erasureId);
  }

  async save(next: ErasureRecord): Promise<ErasureRecord> {
    const current = this.records.get(next.erasureId);
    if (current?.version !== next.version)
      throw new ErasureChangedError(next.spotId, next.erasureId, current);
    const saved = { ...next, version: next.version + 1 };
    this.records.set(next.erasureId, saved);
    return saved;
  }

  async listForSpot(spotId: string): Promise<{ items: ErasureRecord[] }> {
    return { items: [...this.records.values()].filter((record) => record.spotId === spotId) };
  }

  async findRunning(): Promise<ErasureRecord[]> {
    return [...this.records.values()].filter((record) => record.status === 'RUNNING');
  }
}

/** A suppression list in memory, logging each call in `log`. */
export function inMemorySuppressions(log: string[]): SuppressionList & { users: Set<string> } {
  const users = new Set<string>();
  return {
    users,
    suppress: async (spotId, userId) => {
      log.push(`suppress ${spotId} ${userId}`);
      users.add(userId);
    },
    suppressedUsers: async () => [...users],
  };
}

/** The erasure workflow's starts, recorded; a start refused when `refuse` is set. */
export class RecordingErasureWorkflows implements ErasureWorkflows {
  readonly started: { executionName: string; input: ErasureWorkflowInput }[] = [];
  refuse: Error | undefined;

  async start(executionName: string, input: ErasureWorkflowInput): Promise<void> {
    if (this.refuse !== undefined) throw this.refuse;
    if (this.started.some((start) => start.executionName === executionName)) return;
    this.started.push({ executionName, input });
  }
}
