import type { InMemoryExportMetrics } from '../lib/observability/InMemoryExportMetrics';
import { UnknownScheduleError } from './errors';
import { type LocalRoute, OPENAPI_DOCUMENT_PATH } from './http/LocalHttpApi';
import { localJson, localProblem } from './http/localProblem';
import type { LocalExportEvents } from './LocalExportEvents';
import type { LocalSchedules } from './schedules/LocalSchedules';

export interface LocalOnlyRoutesOptions {
  schedules: LocalSchedules;
  events: LocalExportEvents;
  metrics: InMemoryExportMetrics;
  /** The committed `openapi.json`, served as is at `/openapi.json`. */
  openApiDocument: Buffer;
}

/**
 * What only this machine offers: the API's OpenAPI document at `/openapi.json`, and under
 * `/_local/` the schedules (list, fire one now), the export events that would have gone to
 * EventBridge, and the metric totals.
 */
export function localOnlyRoutes(options: LocalOnlyRoutesOptions): LocalRoute[] {
  const { schedules, events, metrics, openApiDocument } = options;
  return [
    {
      method: 'GET',
      path: OPENAPI_DOCUMENT_PATH,
      handle: async () => ({
        statusCode: 200,
        headers: { 'content-type': 'application/json' },
        body: openApiDocument,
      }),
    },
    {
      method: 'GET',
      path: '/_local/schedules',
      handle: async () => localJson(200, { schedules: schedules.list() }),
    },
    {
      method: 'POST',
      path: '/_local/schedules/{name}/fire',
      handle: async ({ pathParameters }) => {
        const name = pathParameters.name as string;
        try {
          const run = await schedules.fire(name);
          if (run.outcome === 'succeeded') return localJson(200, run);
          // The target failed: in AWS, Scheduler would retry it and then dead-letter the event.
          return localProblem({
            status: 502,
            title: 'Schedule target failed',
            detail: run.error ?? 'The target handler failed.',
            extensions: { run },
          });
        } catch (error) {
          if (!(error instanceof UnknownScheduleError)) throw error;
          return localProblem({ status: 404, title: 'Not Found', detail: error.message });
        }
      },
    },
    {
      method: 'GET',
      path: '/_local/events',
      handle: async () => localJson(200, { events: events.events }),
    },
    {
      method: 'GET',
      path: '/_local/metrics',
      handle: async () => {
        const totals = new Map(metrics.published);
        for (const [name, value] of metrics.pending) totals.set(name, (totals.get(name) ?? 0) + value);
        return localJson(200, { metrics: Object.fromEntries(totals) });
      },
    },
  ];
}
