import type { StateMachineDefinition } from '../infra/extractStateMachine';

interface RetrierShape {
  IntervalSeconds?: number;
  MaxDelaySeconds?: number;
}

interface StateShape {
  Type?: string;
  Seconds?: number;
  Retry?: RetrierShape[];
}

/** Step Functions' default first retry interval, which the scaled copy must spell out. */
const DEFAULT_RETRY_INTERVAL_SECONDS = 1;

/**
 * A copy of the definition whose waits and retry intervals last `timeScale` times as
 * long (e.g. 0.001: a 5-minute backoff takes 0.3 s), keeping the backoff rates and
 * jitter as deployed. Task timeouts are not scaled: handlers run at real speed.
 * The copy may hold fractional seconds, which only the local runner accepts.
 */
export function scaleDefinitionTimes(
  definition: StateMachineDefinition,
  timeScale: number,
): StateMachineDefinition {
  const copy = structuredClone(definition);
  if (typeof copy.TimeoutSeconds === 'number') copy.TimeoutSeconds = copy.TimeoutSeconds * timeScale;
  for (const state of Object.values(copy.States) as StateShape[]) {
    if (state.Type === 'Wait' && typeof state.Seconds === 'number') state.Seconds *= timeScale;
    for (const retrier of state.Retry ?? []) {
      retrier.IntervalSeconds = (retrier.IntervalSeconds ?? DEFAULT_RETRY_INTERVAL_SECONDS) * timeScale;
      if (typeof retrier.MaxDelaySeconds === 'number') retrier.MaxDelaySeconds *= timeScale;
    }
  }
  return copy;
}

/** Wait states that read their duration from the input (`SecondsPath: $.name`), by state name → field. */
export function inputDrivenWaits(definition: StateMachineDefinition): Record<string, string> {
  const waits: Record<string, string> = {};
  for (const [name, state] of Object.entries(definition.States) as [
    string,
    { Type?: string; SecondsPath?: string },
  ][]) {
    const field =
      state.Type === 'Wait' ? /^\$\.([A-Za-z0-9_]+)$/.exec(state.SecondsPath ?? '')?.[1] : undefined;
    if (field !== undefined) waits[name] = field;
  }
  return waits;
}
