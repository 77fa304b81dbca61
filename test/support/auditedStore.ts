import type { ExportRecord } from '../../lib/exports/record/ExportRecord';
import { isTerminal } from '../../lib/exports/record/ExportStatus';
import type { ExportStore } from '../../lib/exports/record/ExportStore';
import { canTransition } from '../../lib/exports/record/exportTransitions';

/**
 * What audited stores saw written: the latest version of every record and every illegal
 * step. One audit may watch several stores (containers sharing a table).
 */
export class StoreAudit {
  readonly violations: string[] = [];
  readonly #latest = new Map<string, ExportRecord>();
  /** The first terminal version of each record that reached one, as written. */
  readonly #terminal = new Map<string, ExportRecord>();

  /** Records written so far, by export id, at their highest version seen. */
  get latest(): ReadonlyMap<string, ExportRecord> {
    return this.#latest;
  }

  /** Terminal records as they were when they became terminal. */
  get terminal(): ReadonlyMap<string, ExportRecord> {
    return this.#terminal;
  }

  observe(record: ExportRecord): void {
    const previous = this.#latest.get(record.exportId);
    if (previous !== undefined && record.version > previous.version) {
      if (isTerminal(previous.status))
        this.violations.push(`${record.exportId}: terminal ${previous.status} was rewritten`);
      else if (previous.status !== record.status && !canTransition(previous.status, record.status)) {
        this.violations.push(`${record.exportId}: ${previous.status} → ${record.status}`);
      }
    }
    if (previous === undefined || record.version > previous.version)
      this.#latest.set(record.exportId, record);
    if (isTerminal(record.status) && !this.#terminal.has(record.exportId))
      this.#terminal.set(record.exportId, record);
  }
}

/** Watches every record the store hands back after a write and notes any illegal step. */
export function auditedStore(store: ExportStore, audit: StoreAudit): ExportStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        if (property === 'createExport' || property === 'transition') audit.observe(result as ExportRecord);
        return result;
      };
    },
  });
}
