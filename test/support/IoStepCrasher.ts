import type { ExportDependencies } from '../../lib/exports/ExportDependencies';
import { SimulatedCrash } from './SimulatedCrash';

/** Whether the process dies just before the chosen I/O call goes out or just after it returned. */
export type CrashPlacement = 'before' | 'after';

/**
 * Kills a process at its Nth I/O call through the ports that leave the process (store,
 * spot locks, idempotency keys, upstream, workflows, events), counted from 1 in the order the calls are made. Once dead,
 * every later call of that process fails too, answers of calls still in flight included:
 * nothing of a dead process runs on.
 */
export class IoStepCrasher {
  /** Every I/O call made, as `port.method`, the fatal one included. */
  readonly steps: string[] = [];
  readonly #atStep: number;
  readonly #placement: CrashPlacement;
  #crashedAt: string | undefined;

  constructor(atStep: number, placement: CrashPlacement) {
    this.#atStep = atStep;
    this.#placement = placement;
  }

  /** The step the process died at, as `N:port.method`; undefined while it lives. */
  get crashedAt(): string | undefined {
    return this.#crashedAt;
  }

  /** The I/O call the process died at, as `port.method`; undefined while it lives. */
  get crashedStep(): string | undefined {
    return this.#crashedAt === undefined ? undefined : this.steps[this.#atStep - 1];
  }

  /** The dependencies as the doomed process sees them. */
  wrap(deps: ExportDependencies): ExportDependencies {
    return {
      ...deps,
      store: this.#port('store', deps.store),
      spotLocks: this.#port('spotLocks', deps.spotLocks),
      idempotencyKeys: this.#port('idempotencyKeys', deps.idempotencyKeys),
      upstream: this.#port('upstream', deps.upstream),
      workflows: this.#port('workflows', deps.workflows),
      events: this.#port('events', deps.events),
    };
  }

  /** Any other port as the doomed process sees it (its calls counted with the rest, as `portName.method`). */
  port<T extends object>(portName: string, port: T): T {
    return this.#port(portName, port);
  }

  #port<T extends object>(portName: string, port: T): T {
    return new Proxy(port, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          this.#failIfDead();
          const step = this.steps.push(`${portName}.${String(property)}`);
          if (step === this.#atStep && this.#placement === 'before') this.#die(step);
          const settled = await Promise.resolve(value.apply(target, args)).then(
            (result: unknown) => ({ ok: true as const, result }),
            (error: unknown) => ({ ok: false as const, error }),
          );
          this.#failIfDead();
          // A call that failed has returned too: the process may die right after it either way.
          if (step === this.#atStep && this.#placement === 'after') this.#die(step);
          if (!settled.ok) throw settled.error;
          return settled.result;
        };
      },
    });
  }

  #failIfDead(): void {
    if (this.#crashedAt !== undefined) throw new SimulatedCrash(`process already dead (${this.#crashedAt})`);
  }

  #die(step: number): never {
    this.#crashedAt = `${step}:${this.steps[step - 1]}`;
    throw new SimulatedCrash(`crash ${this.#placement} I/O step ${this.#crashedAt}`);
  }
}
