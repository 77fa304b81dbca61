import { HandlerNames } from '../../../lib/http/routeTable';
import { apiRequests, parseResponse } from '../../support/apiGatewayEvents';
import type { FaultScenario, ScenarioContainer } from './FaultScenario';

/** How often an API client tries a start before giving up (it keeps its idempotency key). */
export const API_CALLER_MAX_ATTEMPTS = 4;
/** A client's first pause between attempts; each later one is this many times longer (or the Retry-After). */
export const API_CALLER_RETRY_PAUSE_SECONDS = 5;
const API_CALLER_BACKOFF_FACTOR = 4;
/** EventBridge Scheduler's first delivery plus its retries (infra/ExportSchedules.ts: 3). */
export const SCHEDULER_MAX_DELIVERIES = 4;
/** Scheduler backs off about a minute between retries. */
export const SCHEDULER_RETRY_PAUSE_SECONDS = 60;
/** The scheduled window every schedule in the suite exports. */
export const SCHEDULE_WINDOW = 'P1D';
/** The one schedule each spot of the suite has. */
export const SCHEDULE_NAME = 'daily';
const MS_PER_SECOND = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_WINDOW_END_MS = Date.parse('2026-10-20T00:00:00Z');

/** A one-day window, distinct per number: the requests of the suite's starts. */
export function windowRequest(window: number): { from: string; until: string } {
  const untilMs = FIRST_WINDOW_END_MS + window * DAY_MS;
  return { from: wholeSeconds(untilMs - DAY_MS), until: wholeSeconds(untilMs) };
}

/** The schedule event for a window: the same scheduled time on every redelivery. */
export function scheduleEvent(spotId: string, window: number, restate: readonly string[] = []) {
  return {
    source: 'schedule',
    spotId,
    schedule: SCHEDULE_NAME,
    window: SCHEDULE_WINDOW,
    ...(restate.length > 0 && { restate }),
    scheduledTime: windowRequest(window).until,
  };
}

export interface ApiAnswer {
  statusCode: number;
  exportId?: string;
  exportStatus?: string;
}

/**
 * A client starting an export through the API: retries what may succeed later (5xx, 409
 * "in progress") with the same Idempotency-Key, backing off (5 s, 20 s, 80 s) or as long as
 * Retry-After says, and gives up on a refusal (4xx other than 409) or after its attempts.
 * A `concurrent` caller retries without moving the shared clock: its pause would otherwise
 * age the calls still in flight beside it at once (a claim would look abandoned).
 */
export async function startViaApi(
  scenario: FaultScenario,
  spotId: string,
  window: number,
  options: { key?: string; container?: () => ScenarioContainer; concurrent?: boolean; queue?: boolean } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = options.key === undefined ? {} : { 'idempotency-key': options.key };
  const body = { ...windowRequest(window), ...(options.queue === true && { whenBusy: 'queue' }) };
  let answer: ApiAnswer = { statusCode: 0 };
  for (let attempt = 1; attempt <= API_CALLER_MAX_ATTEMPTS; attempt++) {
    const container = options.container?.() ?? scenario.main;
    const response = parseResponse(
      await container.invoke(HandlerNames.START, apiRequests.start(spotId, body, headers)),
    );
    answer = answerOf(response.statusCode, response.body);
    const retryable = response.statusCode >= 500 || response.statusCode === 409;
    if (response.statusCode < 300 || !retryable || options.key === undefined) return answer;
    const backoffSeconds = API_CALLER_RETRY_PAUSE_SECONDS * API_CALLER_BACKOFF_FACTOR ** (attempt - 1);
    const pauseSeconds = Math.max(Number(response.headers['retry-after'] ?? 0), backoffSeconds);
    if (!scenario.realTime && !options.concurrent) scenario.clock.advance(pauseSeconds * MS_PER_SECOND);
  }
  return answer;
}

export async function checkViaApi(
  scenario: FaultScenario,
  spotId: string,
  exportId: string,
): Promise<ApiAnswer> {
  const response = parseResponse(
    await scenario.main.invoke(HandlerNames.CHECK_STATUS, apiRequests.check(spotId, exportId)),
  );
  return answerOf(response.statusCode, response.body);
}

export async function abortViaApi(
  scenario: FaultScenario,
  spotId: string,
  exportId: string,
  container: ScenarioContainer = scenario.main,
): Promise<ApiAnswer> {
  const response = parseResponse(
    await container.invoke(HandlerNames.ABORT, apiRequests.abort(spotId, exportId)),
  );
  return answerOf(response.statusCode, response.body);
}

/**
 * EventBridge Scheduler delivering one scheduled start: a delivery that throws is
 * retried after a pause, up to its retry policy; then the event would go to the DLQ.
 * True when a delivery succeeded. A `concurrent` delivery retries without moving the clock.
 */
export async function deliverSchedule(
  scenario: FaultScenario,
  spotId: string,
  window: number,
  container: () => ScenarioContainer = () => scenario.main,
  concurrent = false,
  restate: readonly string[] = [],
): Promise<boolean> {
  for (let delivery = 1; delivery <= SCHEDULER_MAX_DELIVERIES; delivery++) {
    try {
      await container().invoke(HandlerNames.START, scheduleEvent(spotId, window, restate));
      return true;
    } catch {
      if (!scenario.realTime && !concurrent)
        scenario.clock.advance(SCHEDULER_RETRY_PAUSE_SECONDS * MS_PER_SECOND);
    }
  }
  return false;
}

function answerOf(statusCode: number, body: Record<string, unknown> | null): ApiAnswer {
  const exportId = typeof body?.exportId === 'string' ? body.exportId : undefined;
  const exportStatus = typeof body?.status === 'string' ? body.status : undefined;
  return {
    statusCode,
    ...(exportId !== undefined && { exportId }),
    ...(exportStatus !== undefined && { exportStatus }),
  };
}

function wholeSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The days a backfill of the suite covers: apart from the API's and the schedules' windows. */
const BACKFILL_FIRST_WINDOW = 20;
const BACKFILL_DAYS = 4;

/**
 * A client backfilling a spot's history through the API (four days in windows of a day), with
 * its Idempotency-Key when given; a 5xx is retried like a start's.
 */
export async function startBackfillViaApi(
  scenario: FaultScenario,
  spotId: string,
  options: { key?: string; container?: () => ScenarioContainer } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = options.key === undefined ? {} : { 'idempotency-key': options.key };
  const body = {
    from: windowRequest(BACKFILL_FIRST_WINDOW).from,
    until: windowRequest(BACKFILL_FIRST_WINDOW + BACKFILL_DAYS - 1).until,
    windowHours: 24,
  };
  let answer: ApiAnswer = { statusCode: 0 };
  for (let attempt = 1; attempt <= API_CALLER_MAX_ATTEMPTS; attempt++) {
    const container = options.container?.() ?? scenario.main;
    const response = parseResponse(
      await container.invoke(HandlerNames.BACKFILLS, apiRequests.startBackfill(spotId, body, headers)),
    );
    answer = answerOf(response.statusCode, response.body);
    if (response.statusCode < 500 || options.key === undefined) return answer;
    if (!scenario.realTime) scenario.clock.advance(API_CALLER_RETRY_PAUSE_SECONDS * MS_PER_SECOND);
  }
  return answer;
}
