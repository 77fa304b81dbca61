import type { ArchivedFilesDependencies } from '../lib/archive/archivedFiles';
import type { ArchiveDependencies } from '../lib/archive/archiveExport';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import type { ErasureDependencies } from '../lib/exports/erasure/runErasure';
import { type HandlerName, HandlerNames, handlerEntryPath, ROUTES, type Route } from '../lib/http/routeTable';
import type { ExportHandler } from '../lib/runtime/createHandler';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import type { FunctionGroup } from '../lib/settings/Setting';
import type { ExportTableIndex } from '../lib/store/tableDefinition';
import type { ErasureApiDependencies } from './erasures';

/**
 * Every Lambda function, once: the stack builds each function and its grants from this table
 * (infra/ExportFunctions.ts) and the local runtime builds its handlers from it
 * (local/localHandlers.ts). A new route is a line of the route table (lib/http/routeTable.ts),
 * its handler and its use case; a new function is an entry here and its file.
 *
 * No function imports this file: each handler is loaded only when asked for, and a bundle that
 * imported it would hold every function.
 */

/** What a function is sized for; the stack gives each size its memory and timeout. */
export type FunctionSize = 'api' | 'workflowTask' | 'reconcile' | 'archive';

/** DynamoDB actions on the export table. */
export type TableAction = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'Scan';

/** What a function does to the polling workflow's executions. */
export type WorkflowAction = 'start' | 'describe' | 'stop';

/** What a function may touch: the stack grants this and nothing else (test/integration/infra/staticGrants.test.ts checks it against the bundles). */
export interface FunctionAccess {
  /** Its actions on the export table; `Query` also on `indexes`. */
  table: readonly TableAction[];
  indexes?: readonly (typeof ExportTableIndex)[keyof typeof ExportTableIndex][];
  /** Reads the spots' upstream credentials (one secret per spot, under the configured prefix). */
  spotSecrets?: true;
  workflow?: readonly WorkflowAction[];
  /** Publishes export events on the deployment's bus. */
  events?: true;
  /**
   * The archive bucket: `write` the archived files and their tables, `read` the archived files (to
   * presign downloads), `erase` read, rewrite and delete every version of both.
   */
  archive?: 'write' | 'read' | 'erase';
  /** What it does to the erasure workflow's executions. */
  erasureWorkflow?: readonly 'start'[];
  /** Registers table partitions in the catalog, and those it lacks from the table's prefix of the bucket (listed). */
  catalog?: true;
  /** Counts rows of the table with Athena in the deployment's workgroup (its name in `LAKE_WORK_GROUP_NAME`). */
  tableQuery?: true;
}

/** The dependencies each kind of handler is made with. */
export interface HandlerDependencies {
  /** The export lifecycle's ports, or the part of them a handler uses. */
  lifecycle: ExportDependencies;
  /** The archive run's; undefined: nothing is archived and the tasks pass. */
  archive: ArchiveDependencies | undefined;
  /** The files listing's. */
  files: ArchivedFilesDependencies;
  /** The erasure routes': the erasure records, the suppression list and the erasure workflow's start. */
  erasure: ErasureApiDependencies;
  /** The erasure workflow's task: the records, the archive's eraser and the bus. */
  erasureRun: ErasureDependencies;
}

export type HandlerDependencyKind = keyof HandlerDependencies;

export type HandlerMaker<K extends HandlerDependencyKind> = (
  runtime: HandlerRuntime<HandlerDependencies[K]>,
) => ExportHandler;

/** How to make a function's handler around a runtime: its module is loaded on first use. */
export type HandlerSource = {
  [K in HandlerDependencyKind]: { dependencies: K; load: () => Promise<HandlerMaker<K>> };
}[HandlerDependencyKind];

interface FunctionEntry {
  size: FunctionSize;
  /** The settings it reads: those of its group in the settings table (lib/settings/settingsTable.ts). */
  settings: FunctionGroup;
  access: FunctionAccess;
  handler: HandlerSource;
}

export interface ExportFunctionDefinition extends FunctionEntry {
  name: HandlerName;
  /** Relative to the project root. */
  entry: string;
  /** Its routes on the HTTP API, from the route table; none for the workflow's and the schedules' functions. */
  routes: readonly Route[];
}

/**
 * The export records, read and written by every function that may move an export on. DeleteItem
 * releases the spot lock and drops an idempotency record after a failed start; Query reads the
 * link pages of an export whose links did not fit in its item, and a spot's own exports (newest
 * first) when an upstream id is recovered from the upstream's list.
 */
const RECORDS = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'] as const;

const FUNCTIONS = {
  // A start records the export (and a schedule's windows) and starts its workflow, or queues it
  // and starts the head of the spot's queue (the status index); it never ends an export. A
  // replayed start reads the export it answers with, paged links included.
  [HandlerNames.START]: {
    size: 'api',
    settings: 'lifecycle',
    access: { table: RECORDS, indexes: ['byStatus'], spotSecrets: true, workflow: ['start'] },
    handler: { dependencies: 'lifecycle', load: async () => (await import('./start')).makeStartHandler },
  },
  // A status check polls a stale export and records its end: the spot freed, the end announced,
  // its window written, the spot's next queued export started.
  [HandlerNames.CHECK_STATUS]: {
    size: 'api',
    settings: 'lifecycle',
    access: {
      table: RECORDS,
      indexes: ['byStatus'],
      spotSecrets: true,
      workflow: ['start'],
      events: true,
    },
    handler: {
      dependencies: 'lifecycle',
      load: async () => (await import('./check-status')).makeCheckStatusHandler,
    },
  },
  [HandlerNames.ABORT]: {
    size: 'api',
    settings: 'lifecycle',
    access: {
      table: RECORDS,
      indexes: ['byStatus'],
      spotSecrets: true,
      workflow: ['start', 'stop'],
      events: true,
    },
    handler: { dependencies: 'lifecycle', load: async () => (await import('./abort')).makeAbortHandler },
  },
  // Listing only queries: the table for a spot's exports and link pages, the index by status.
  [HandlerNames.LIST]: {
    size: 'api',
    settings: 'lifecycle',
    access: { table: ['Query'], indexes: ['byStatus'] },
    handler: { dependencies: 'lifecycle', load: async () => (await import('./list')).makeListHandler },
  },
  // Reads the record and the archived files, to presign GETs; writes nothing.
  [HandlerNames.FILES]: {
    size: 'api',
    settings: 'archive',
    access: { table: ['GetItem', 'Query'], archive: 'read' },
    handler: { dependencies: 'files', load: async () => (await import('./files')).makeFilesHandler },
  },
  // The workflow's tasks: the create learns the first wait from the spot's completed exports
  // (the status index); an abort that met a create in flight is sent, stopping the workflow; an
  // export's end starts the spot's next queued one.
  [HandlerNames.WORKFLOW_TASK]: {
    size: 'workflowTask',
    settings: 'lifecycle',
    access: {
      table: RECORDS,
      indexes: ['byStatus'],
      spotSecrets: true,
      workflow: ['start', 'stop'],
      events: true,
    },
    handler: {
      dependencies: 'lifecycle',
      load: async () => (await import('./workflow-task')).makeWorkflowTaskHandler,
    },
  },
  // The archive stores the files and their Parquet copies and registers their partition (and, a
  // few spots a run, those the catalog lacks, listed from the bucket's table prefix). Query
  // reads the link pages of an export whose links did not fit in its item, and, in the reconciler
  // index, the exports whose partition the catalog refused earlier; PutItem and UpdateItem write
  // its window in the coverage ledger (PutItem: a window no planner recorded).
  [HandlerNames.ARCHIVE]: {
    size: 'archive',
    settings: 'archive',
    access: {
      table: ['GetItem', 'PutItem', 'UpdateItem', 'Query'],
      indexes: ['activeByLastPolled'],
      events: true,
      archive: 'write',
      catalog: true,
    },
    handler: { dependencies: 'archive', load: async () => (await import('./archive')).makeArchiveHandler },
  },
  // The reconciler finds what is due through the sparse reconciler index (stale, queued and
  // unarchived exports, due windows, spots due a freshness measurement, erasures whose run
  // lapsed), restarts a workflow that died (after checking it is not running), starts an erasure
  // workflow for a lapsed erasure, finishes interrupted aborts, and once reads the whole table for
  // exports from before their archives were indexed.
  [HandlerNames.RECONCILE]: {
    size: 'reconcile',
    settings: 'lifecycle',
    access: {
      table: [...RECORDS, 'Scan'],
      indexes: ['byStatus', 'activeByLastPolled'],
      spotSecrets: true,
      workflow: ['start', 'describe', 'stop'],
      erasureWorkflow: ['start'],
      events: true,
    },
    handler: {
      dependencies: 'lifecycle',
      load: async () => (await import('./reconcile')).makeReconcileHandler,
    },
  },
  // Coverage queries the spot's windows and watermarks, in its partition of the table: no index.
  [HandlerNames.COVERAGE]: {
    size: 'api',
    settings: 'lifecycle',
    access: { table: ['Query'] },
    handler: {
      dependencies: 'lifecycle',
      load: async () => (await import('./coverage')).makeCoverageHandler,
    },
  },
  // A backfill records its plan and windows and queues their exports (starting the head of the
  // queue); its progress reads the ledger and the spot's queue; its abort withdraws windows
  // (DeleteItem), aborts queued and running exports (upstream, stopping the workflow, freeing
  // the spot) and announces their ends.
  [HandlerNames.BACKFILLS]: {
    size: 'api',
    settings: 'lifecycle',
    access: {
      table: RECORDS,
      indexes: ['byStatus'],
      spotSecrets: true,
      workflow: ['start', 'stop'],
      events: true,
    },
    handler: {
      dependencies: 'lifecycle',
      load: async () => (await import('./backfills')).makeBackfillsHandler,
    },
  },
  // An erasure request puts the user on the spot's suppression list, records the erasure
  // (PutItem, conditional; a FAILED one taken up again is put over its version) and starts its
  // workflow; reading and listing read the spot's partition (GetItem, Query): no index, no
  // bucket, no upstream.
  [HandlerNames.ERASURES]: {
    size: 'api',
    settings: 'lifecycle',
    access: { table: ['GetItem', 'PutItem', 'Query'], erasureWorkflow: ['start'] },
    handler: {
      dependencies: 'erasure',
      load: async () => (await import('./erasures')).makeErasuresHandler,
    },
  },
  // The fleet view reads spots with active or queued exports (the reconciler index), each spot's
  // windows, watermarks, backfills and queue (its partition, the status index), its lock (GetItem).
  [HandlerNames.SPOTS]: {
    size: 'api',
    settings: 'lifecycle',
    access: { table: ['GetItem', 'Query'], indexes: ['byStatus', 'activeByLastPolled'] },
    handler: {
      dependencies: 'lifecycle',
      load: async () => (await import('./spots')).makeSpotsHandler,
    },
  },
  // A slice of an erasure reads and writes its record (PutItem, conditional on its version), lists
  // the spot's completed exports (Query, the status index), reads each export's link pages and
  // manifest and writes its rewritten files' names (GetItem, UpdateItem, Query); rewrites files in
  // the bucket and deletes the old versions; counts the user's rows left in the table (one Athena
  // query); announces the end on the bus. Sized like the archive:
  // it streams the same files.
  [HandlerNames.ERASURE_TASK]: {
    size: 'archive',
    settings: 'archive',
    access: {
      table: ['GetItem', 'PutItem', 'UpdateItem', 'Query'],
      indexes: ['byStatus'],
      events: true,
      archive: 'erase',
      tableQuery: true,
    },
    handler: {
      dependencies: 'erasureRun',
      load: async () => (await import('./erasure-task')).makeErasureTaskHandler,
    },
  },
} as const satisfies Record<HandlerName, FunctionEntry>;

/** Every function, in the order the stack lists them (dashboard, alarms). */
export const EXPORT_FUNCTIONS: readonly ExportFunctionDefinition[] = Object.entries(FUNCTIONS).map(
  ([name, entry]) => ({
    name: name as HandlerName,
    entry: handlerEntryPath(name as HandlerName),
    routes: ROUTES.filter((route) => route.handler === name),
    ...entry,
  }),
);
