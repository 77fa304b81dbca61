import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import type { ExportStore } from '../../../lib/exports/record/ExportStore';
import type { ManualClock } from '../../support/exportHarness';

/** Answers the first read of `earlier`'s export with that earlier copy, as a process that read before a write. */
export function readsFirst(store: ExportStore, earlier: ExportRecord): ExportStore {
  let served = false;
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'getExport' || typeof value !== 'function') return value;
      return async (spotId: string, exportId: string, ...rest: unknown[]) => {
        if (!served && spotId === earlier.spotId && exportId === earlier.exportId) {
          served = true;
          return earlier;
        }
        return value.apply(target, [spotId, exportId, ...rest]);
      };
    },
  });
}

/** Lets `msPerRead` of simulated time pass with every read of an export record. */
export function timePassingOnReads(store: ExportStore, clock: ManualClock, msPerRead: number): ExportStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'getExport' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        clock.advance(msPerRead);
        return value.apply(target, args);
      };
    },
  });
}
