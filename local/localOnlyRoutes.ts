import { pathToFileURL } from 'node:url';
import { ROUTES } from '../lib/http/routeTable';
import { UnknownScheduleError } from './errors';
import { type LocalRoute, OPENAPI_DOCUMENT_PATH } from './http/LocalHttpApi';
import { localJson, localProblem } from './http/localProblem';
import type { InMemoryExportMetrics } from './InMemoryExportMetrics';
import type { LocalExportEvents } from './LocalExportEvents';
import type { LocalSchedules } from './schedules/LocalSchedules';

export interface LocalOnlyRoutesOptions {
  schedules: LocalSchedules;
  events: LocalExportEvents;
  metrics: InMemoryExportMetrics;
  /** The committed `openapi.json`, served as is at `/openapi.json`. */
  openApiDocument: Buffer;
  /** What `GET /` shows; `GET /` and `GET /health` are absent without it. */
  about?: LocalRuntimeAbout;
}

/** The runtime's facts for its index and health check. */
export interface LocalRuntimeAbout {
  /** The package version. */
  version: string;
  spots: readonly string[];
  /** Where README.md and docs/ are, for links to them. */
  projectRoot: string;
  /** Epoch ms. */
  startedAtMs: number;
  /** Whether the active exports found at start have been resumed yet. */
  resumed: () => boolean;
  now?: () => number;
}

const MS_PER_SECOND = 1000;

/** The local-only routes a person is pointed at from the index. */
const LOCAL_LINKS = {
  health: '/health',
  openapi: '/openapi.json',
  schedules: '/_local/schedules',
  events: '/_local/events',
  metrics: '/_local/metrics',
};

function indexAndHealth(about: LocalRuntimeAbout): LocalRoute[] {
  const now = about.now ?? Date.now;
  const doc = (path: string) => pathToFileURL(`${about.projectRoot}/${path}`).href;
  return [
    {
      method: 'GET',
      path: '/',
      handle: async () =>
        localJson(200, {
          name: 'openweb-exports',
          version: about.version,
          mode: 'local: loopback only, no authorization',
          routes: ROUTES.map((route) => `${route.method} ${route.path}`),
          headers: { 'x-spot-id': 'every API route names the spot (sp_…)' },
          spots: about.spots,
          local: LOCAL_LINKS,
          docs: {
            readme: doc('README.md'),
            api: doc('docs/http-api.md'),
            cli: doc('docs/cli.md'),
            upstream: doc('docs/upstream.md'),
          },
        }),
    },
    {
      method: 'GET',
      path: '/health',
      handle: async () =>
        localJson(200, {
          status: 'ok',
          version: about.version,
          uptimeSeconds: Math.max(0, Math.floor((now() - about.startedAtMs) / MS_PER_SECOND)),
          activeExportsResumed: about.resumed(),
        }),
    },
  ];
}

/**
 * What only this machine offers: the API's OpenAPI document at `/openapi.json`, and under
 * `/_local/` the schedules (list, fire one now), the export events that would have gone to
 * EventBridge, and the metric totals.
 */
export function localOnlyRoutes(options: LocalOnlyRoutesOptions): LocalRoute[] {
  const { schedules, events, metrics, openApiDocument } = options;
  return [
    ...(options.about === undefined ? [] : indexAndHealth(options.about)),
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
          // Skipped (the spot is busy) is an answer too: Scheduler counts it as delivered.
          if (run.outcome !== 'failed') return localJson(200, run);
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
