import type { SimulatorEndpoint } from './SimulatorEndpoint';
import type { ScriptedFaultKind } from './SimulatorFaults';

/** One entry per HTTP request received. */
export interface SimulatorRequest {
  /** When it arrived, on the simulator's clock (epoch ms). */
  at: number;
  endpoint: SimulatorEndpoint | 'control' | 'unknown';
  method: string;
  /** The path without its query string. */
  path: string;
  spotId?: string;
  exportId?: string;
  /** The status answered, or 'reset' when the socket was destroyed instead. */
  status: number | 'reset';
  fault?: ScriptedFaultKind;
  clientAddress: string;
}

export class RequestLog {
  #entries: SimulatorRequest[] = [];

  record(entry: SimulatorRequest): void {
    this.#entries.push(entry);
  }

  entries(): SimulatorRequest[] {
    return this.#entries.map((entry) => ({ ...entry }));
  }

  requestsTo(endpoint: SimulatorEndpoint | 'control' | 'unknown'): SimulatorRequest[] {
    return this.entries().filter((entry) => entry.endpoint === endpoint);
  }

  clear(): void {
    this.#entries = [];
  }
}
