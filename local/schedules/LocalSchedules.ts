import { toWholeSecondInstant } from '../../lib/events/scheduledExportEvent';
import type { HandlerName } from '../../lib/http/routeTable';
import { LocalRuntimeStoppingError, UnknownScheduleError } from '../errors';
import { parseScheduleExpression, type ScheduleTiming } from './scheduleExpression';

/** A schedule as the stack deploys it: an expression, a target handler and the event it sends. */
export interface LocalScheduleDefinition {
  /** Unique; the schedule's construct id in the stack. */
  name: string;
  description: string;
  expression: string;
  timeZone?: string;
  /** Scheduler's flexible time window: each run fires at a random moment this long after its time, at most. */
  flexibleWindowMs?: number;
  target: HandlerName;
  /** The event of a run scheduled at `scheduledTime` (Scheduler's `<aws.scheduler.scheduled-time>`). */
  eventFor(scheduledTime: string): unknown;
}

export interface ScheduleRun {
  schedule: string;
  scheduledTime: string;
  /** Fired by hand rather than by the clock. */
  manual: boolean;
  outcome: 'succeeded' | 'failed';
  result?: unknown;
  /** `<error name>: <message>` of a failed run. */
  error?: string;
}

export interface ScheduleView {
  name: string;
  description: string;
  expression: string;
  timeZone?: string;
  target: HandlerName;
  /** How this machine runs it, e.g. `every 3 s`; undefined when it cannot. */
  localTiming?: string;
  /** Why the clock never fires it here (it can still be fired by hand). */
  notRunReason?: string;
  nextRunAt?: string;
  lastRun?: ScheduleRun;
}

export interface LocalSchedulesOptions {
  definitions: readonly LocalScheduleDefinition[];
  /** Real time per scheduled time for rate schedules; cron schedules follow the wall clock. */
  timeScale: number;
  invoke: (handler: HandlerName, event: unknown) => Promise<unknown>;
  onRun?: (run: ScheduleRun) => void;
  /** Epoch ms. */
  now?: () => number;
  /** Draws the offset within a flexible window; default Math.random. */
  random?: () => number;
}

/** However small the time scale, a rate schedule runs at most this often. */
export const MIN_SCALED_RATE_INTERVAL_MS = 1_000;
/** setTimeout's longest delay; a later run is re-armed when it expires. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;
const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;

interface ScheduleEntry {
  definition: LocalScheduleDefinition;
  timing?: ScheduleTiming;
  notRunReason?: string;
  nextRunAtMs?: number;
  timer?: NodeJS.Timeout;
  lastRun?: ScheduleRun;
}

/** A rate schedule's interval on this machine. */
export function scaledRateIntervalMs(intervalMs: number, timeScale: number): number {
  return Math.max(MIN_SCALED_RATE_INTERVAL_MS, Math.round(intervalMs * timeScale));
}

/**
 * EventBridge Scheduler on one machine: each schedule invokes its target handler with
 * its event, the scheduled time being the tick's (not when the timer actually fired).
 * A schedule whose expression cannot run here is listed with the reason and can
 * still be fired by hand.
 */
export class LocalSchedules {
  readonly #entries = new Map<string, ScheduleEntry>();
  readonly #inFlight = new Set<Promise<ScheduleRun>>();
  readonly #options: LocalSchedulesOptions;
  readonly #now: () => number;
  #started = false;
  #stopped = false;

  constructor(options: LocalSchedulesOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    for (const definition of options.definitions) {
      const entry: ScheduleEntry = { definition };
      try {
        entry.timing = parseScheduleExpression(definition.expression, definition.timeZone);
      } catch (error) {
        entry.notRunReason = (error as Error).message;
      }
      this.#entries.set(definition.name, entry);
    }
  }

  /** Arms every schedule that can run here; the first run is one interval (or calendar slot) away. */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    for (const entry of this.#entries.values()) this.#arm(entry, this.#now());
  }

  list(): ScheduleView[] {
    return [...this.#entries.values()].map((entry) => this.#view(entry));
  }

  /** Runs a schedule now, as if its time had come. @throws UnknownScheduleError, LocalRuntimeStoppingError */
  async fire(name: string): Promise<ScheduleRun> {
    const entry = this.#entries.get(name);
    if (entry === undefined) throw new UnknownScheduleError(name);
    if (this.#stopped) throw new LocalRuntimeStoppingError();
    return this.#run(entry, this.#now(), true);
  }

  /** No further runs; resolves once the runs in progress have ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const entry of this.#entries.values()) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
      entry.nextRunAtMs = undefined;
    }
    await Promise.allSettled([...this.#inFlight]);
  }

  #arm(entry: ScheduleEntry, afterMs: number): void {
    if (this.#stopped || entry.timing === undefined) return;
    const next = this.#nextRun(entry.timing, afterMs);
    entry.nextRunAtMs = next;
    if (next === undefined) return;
    this.#setTimer(entry, next);
  }

  #setTimer(entry: ScheduleEntry, runAtMs: number, fireAtMs = runAtMs + this.#flexibleOffsetMs(entry)): void {
    const delay = Math.min(MAX_TIMER_DELAY_MS, Math.max(0, fireAtMs - this.#now()));
    entry.timer = setTimeout(() => {
      if (this.#stopped) return;
      if (this.#now() < fireAtMs) {
        this.#setTimer(entry, runAtMs, fireAtMs);
        return;
      }
      void this.#run(entry, runAtMs, false);
      this.#arm(entry, runAtMs);
    }, delay);
    // The API server keeps the process alive; schedules alone should not.
    entry.timer.unref();
  }

  /** Where in its flexible window a run fires (scaled like its rate; a cron schedule's is wall-clock time). */
  #flexibleOffsetMs(entry: ScheduleEntry): number {
    const windowMs = entry.definition.flexibleWindowMs;
    if (windowMs === undefined || entry.timing === undefined) return 0;
    const scaledMs = entry.timing.kind === 'cron' ? windowMs : windowMs * this.#options.timeScale;
    return Math.floor((this.#options.random ?? Math.random)() * scaledMs);
  }

  #nextRun(timing: ScheduleTiming, afterMs: number): number | undefined {
    if (timing.kind === 'cron') return timing.cron.next(afterMs);
    const interval = scaledRateIntervalMs(timing.intervalMs, this.#options.timeScale);
    let next = afterMs + interval;
    // After a pause (a suspended laptop), missed runs are skipped, not replayed in a burst.
    while (next <= this.#now()) next += interval;
    return next;
  }

  #run(entry: ScheduleEntry, scheduledAtMs: number, manual: boolean): Promise<ScheduleRun> {
    const { definition } = entry;
    const scheduledTime = toWholeSecondInstant(scheduledAtMs);
    const base = { schedule: definition.name, scheduledTime, manual };
    const run = Promise.resolve()
      .then(() => this.#options.invoke(definition.target, definition.eventFor(scheduledTime)))
      .then(
        (result): ScheduleRun => ({ ...base, outcome: 'succeeded', result }),
        (error: unknown): ScheduleRun => ({ ...base, outcome: 'failed', error: describeError(error) }),
      )
      .then((finished) => {
        entry.lastRun = finished;
        try {
          this.#options.onRun?.(finished);
        } catch {
          // Reporting a run must not turn it into a failure.
        }
        return finished;
      });
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
    return run;
  }

  #view(entry: ScheduleEntry): ScheduleView {
    const { definition, timing } = entry;
    return {
      name: definition.name,
      description: definition.description,
      expression: definition.expression,
      ...(definition.timeZone !== undefined && { timeZone: definition.timeZone }),
      target: definition.target,
      ...(timing !== undefined && { localTiming: this.#describeTiming(timing, definition.timeZone) }),
      ...(entry.notRunReason !== undefined && { notRunReason: entry.notRunReason }),
      ...(entry.nextRunAtMs !== undefined && { nextRunAt: new Date(entry.nextRunAtMs).toISOString() }),
      ...(entry.lastRun !== undefined && { lastRun: entry.lastRun }),
    };
  }

  #describeTiming(timing: ScheduleTiming, timeZone: string | undefined): string {
    if (timing.kind === 'cron') return `on the ${timeZone ?? 'UTC'} wall clock (not scaled)`;
    return `every ${formatDuration(scaledRateIntervalMs(timing.intervalMs, this.#options.timeScale))}`;
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function formatDuration(ms: number): string {
  const round = (value: number) => String(Math.round(value * 10) / 10);
  if (ms < MS_PER_MINUTE) return `${round(ms / MS_PER_SECOND)} s`;
  if (ms < MS_PER_HOUR) return `${round(ms / MS_PER_MINUTE)} min`;
  return `${round(ms / MS_PER_HOUR)} h`;
}
