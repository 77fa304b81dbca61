import type { ExportStore } from '../../lib/exports/record/ExportStore';
import { SimulatedCrash } from './SimulatedCrash';

/** The store, except that the first transition to `crashOn` dies as a process would, before writing. */
export function crashingStore(store: ExportStore, crashOn: string): ExportStore {
  let crashed = false;
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'transition') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<ExportStore['transition']>) => {
        if (!crashed && args[2].to === crashOn) {
          crashed = true;
          throw new SimulatedCrash(`crash before writing ${crashOn}`);
        }
        return target.transition(...args);
      };
    },
  });
}
