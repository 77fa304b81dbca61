import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { FILES_NEXT_TOKEN_PATTERN, FILES_PAGE_SIZE } from '../lib/archive/archivedFiles';
import { archivedFilesSchema } from '../lib/archive/archivedFilesSchema';
import { PROBLEMS, ProblemType } from '../lib/errors/problems';
import {
  BACKFILL_ID_PATTERN,
  BACKFILL_LIST_DEFAULT_LIMIT,
  BACKFILL_LIST_MAX_LIMIT,
} from '../lib/exports/backfill/BackfillRecord';
import {
  DEFAULT_COVERAGE_PAGE_WINDOWS,
  DEFAULT_COVERAGE_RANGE_DAYS,
  MAX_COVERAGE_PAGE_WINDOWS,
  MAX_COVERAGE_RANGE_DAYS,
} from '../lib/exports/coverage/spotCoverage';
import { spotCoverageSchema } from '../lib/exports/coverage/spotCoverageSchema';
import {
  ERASURE_ID_PATTERN,
  ERASURE_LIST_DEFAULT_LIMIT,
  ERASURE_LIST_MAX_LIMIT,
} from '../lib/exports/erasure/ErasureRecord';
import { DEFAULT_FLEET_PAGE_SPOTS, MAX_FLEET_PAGE_SPOTS } from '../lib/exports/fleet/fleetStatus';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from '../lib/exports/lifecycle/listExports';
import { EXPORT_STATUSES } from '../lib/exports/record/ExportStatus';
import { EXPORT_ID_PATTERN } from '../lib/exports/record/exportId';
import { SPOT_ID_PATTERN } from '../lib/exports/record/spotId';
import { RFC3339_UTC_SECONDS } from '../lib/exports/time/instants';
import { MAX_REQUEST_BODY_BYTES, MAX_REQUEST_HEADERS_BYTES } from '../lib/http/apiRequestLimits';
import { backfillViewSchema } from '../lib/http/backfillViewSchema';
import { erasureListSchema, erasureViewSchema } from '../lib/http/erasureViewSchema';
import { exportListSchema, exportViewSchema } from '../lib/http/exportViewSchema';
import { JSON_CONTENT_TYPE } from '../lib/http/jsonResponse';
import { PROBLEM_CONTENT_TYPE } from '../lib/http/problemResponse';
import { INTERNAL_ERROR_PROBLEM } from '../lib/http/problemResponses';
import { gatewayMessageSchema, problemSchema } from '../lib/http/problemSchema';
import { MAX_FLEET_QUERY_SPOTS } from '../lib/http/readFleetQuery';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  MAX_IDEMPOTENCY_KEY_CHARS,
} from '../lib/http/readIdempotencyKey';
import { MAX_NEXT_TOKEN_CHARS, NEXT_TOKEN_PATTERN } from '../lib/http/readListQuery';
import { SPOT_ID_HEADER } from '../lib/http/readSpotId';
import { FLEET_ROUTE_KEYS, ROUTES, type RouteKey, routeKey } from '../lib/http/routeTable';
import { SETTINGS } from '../lib/settings/settingsTable';
import {
  backfillListSchema,
  backfillRequestSchema,
  COMPONENT_SCHEMAS,
  erasureRequestSchema,
  fleetPageSchema,
  startExportBodySchema,
} from './apiSchemas';

/** The project's root folder, where the committed document lives. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export { OPENAPI_DOCUMENT_FILE } from './documentFile';

export type JsonObject = { [key: string]: unknown };

type ComponentSchema = (typeof COMPONENT_SCHEMAS)[number];
type HttpStatus = number;

interface HeaderDoc {
  description: string;
  required: boolean;
  schema: JsonObject;
}

interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  /** The JSON body the operation reads, if any. */
  requestBody?: ComponentSchema;
  /** Whether the operation reads `Idempotency-Key`. */
  idempotencyKey?: boolean;
  query?: JsonObject[];
  success: {
    status: HttpStatus;
    description: string;
    schema: ComponentSchema;
    headers?: Record<string, HeaderDoc>;
  };
  /** The problems the operation itself may answer, besides those every route may (`EVERY_ROUTE_PROBLEMS`). */
  problems: readonly ProblemType[];
}

/** What each kind of problem means for the caller; its status is the table's (lib/errors/problems.ts). */
const PROBLEM_MEANINGS: Record<ProblemType, string> = {
  [ProblemType.INVALID_REQUEST]: 'a header, parameter or the body is invalid; `errors` lists each field',
  [ProblemType.SPOT_NOT_ALLOWED]:
    'JWT mode with a spot claim: the token does not list the spot named in `x-spot-id`',
  [ProblemType.EXPORT_NOT_FOUND]:
    "no such export for this spot (an unknown id, a malformed one and another spot's alike)",
  [ProblemType.PAYLOAD_TOO_LARGE]: `the body is over ${MAX_REQUEST_BODY_BYTES} bytes`,
  [ProblemType.UNSUPPORTED_MEDIA_TYPE]: 'the body is not declared `application/json` (UTF-8, not compressed)',
  [ProblemType.REQUEST_HEADERS_TOO_LARGE]: `the headers total over ${MAX_REQUEST_HEADERS_BYTES} bytes`,
  [ProblemType.SPOT_BUSY]:
    'another export of the spot is in progress (OpenWeb runs one at a time); `activeExportId` names it',
  [ProblemType.EXPORT_ALREADY_FINISHED]:
    'the export completed or failed and can no longer be aborted; `exportStatus` says how it ended',
  [ProblemType.UPSTREAM_EXPORT_IN_PROGRESS]:
    'OpenWeb runs an export of this spot that was not started here; retry later',
  [ProblemType.EXPORT_CHANGED_CONCURRENTLY]:
    'the export changed while the request was handled; read it again and retry if still needed',
  [ProblemType.IDEMPOTENCY_KEY_REUSED]: 'the `Idempotency-Key` was already used with a different request',
  [ProblemType.SPOT_NOT_CONFIGURED]: 'no usable OpenWeb credentials are configured for the spot',
  [ProblemType.UPSTREAM_REJECTED_REQUEST]: 'OpenWeb refused the request',
  [ProblemType.UPSTREAM_CREDENTIALS_REJECTED]: "OpenWeb refused the spot's credentials",
  [ProblemType.UPSTREAM_PROTOCOL_ERROR]: 'OpenWeb answered in a way this service does not understand',
  [ProblemType.UPSTREAM_ERROR]: 'OpenWeb refused or failed the request',
  [ProblemType.UPSTREAM_UNAVAILABLE]: 'OpenWeb could not be reached; retry later',
  [ProblemType.UPSTREAM_RATE_LIMITED]:
    'OpenWeb is limiting requests; retry after `Retry-After` seconds when given',
  [ProblemType.CREDENTIALS_UNAVAILABLE]: "the spot's credentials could not be read; retry later",
  [ProblemType.UPSTREAM_TIMEOUT]: 'OpenWeb did not answer in time; retry later',
  [ProblemType.BACKFILL_NOT_FOUND]:
    "no such backfill for this spot (an unknown id, a malformed one and another spot's alike)",
  [ProblemType.ERASURE_NOT_FOUND]:
    "no such erasure for this spot (an unknown id, a malformed one and another spot's alike)",
  [ProblemType.SPOT_NOT_FOUND]:
    'a spot named in `spotId` is not one the deployment knows (or the caller may use); `suggestion` names the nearest known one',
};

/** Problems the middleware of every handler may answer: size limits, the spot header, the spot claim. */
const EVERY_ROUTE_PROBLEMS: readonly ProblemType[] = [
  ProblemType.INVALID_REQUEST,
  ProblemType.SPOT_NOT_ALLOWED,
  ProblemType.PAYLOAD_TOO_LARGE,
  ProblemType.REQUEST_HEADERS_TOO_LARGE,
];

/** Problems of a use case that reads the spot's credentials and calls OpenWeb. */
const UPSTREAM_PROBLEMS: readonly ProblemType[] = [
  ProblemType.SPOT_NOT_CONFIGURED,
  ProblemType.CREDENTIALS_UNAVAILABLE,
  ProblemType.UPSTREAM_CREDENTIALS_REJECTED,
  ProblemType.UPSTREAM_EXPORT_IN_PROGRESS,
  ProblemType.UPSTREAM_REJECTED_REQUEST,
  ProblemType.UPSTREAM_PROTOCOL_ERROR,
  ProblemType.UPSTREAM_ERROR,
  ProblemType.UPSTREAM_UNAVAILABLE,
  ProblemType.UPSTREAM_RATE_LIMITED,
  ProblemType.UPSTREAM_TIMEOUT,
];

const exportIdParameter: JsonObject = {
  name: 'exportId',
  in: 'path',
  required: true,
  description:
    'The export, as `exportId` of a start or list answer. A malformed id is simply not found (404).',
  schema: { type: 'string', pattern: EXPORT_ID_PATTERN.source },
};

const coverageInstant = (description: string): JsonObject => ({
  type: 'string',
  pattern: RFC3339_UTC_SECONDS.source,
  description,
});

const spotIdPathParameter: JsonObject = {
  name: 'spotId',
  in: 'path',
  required: true,
  description:
    'The spot the request acts for (instead of `x-spot-id`, which may be left out or must name the same spot). In JWT mode with a spot claim, the token must list it.',
  schema: { type: 'string', pattern: SPOT_ID_PATTERN.source },
};

const erasureIdParameter: JsonObject = {
  name: 'erasureId',
  in: 'path',
  required: true,
  description: 'The erasure, as `erasureId` of its request. A malformed id is simply not found (404).',
  schema: { type: 'string', pattern: ERASURE_ID_PATTERN.source },
};

const backfillIdParameter: JsonObject = {
  name: 'backfillId',
  in: 'path',
  required: true,
  description: 'The backfill, as `backfillId` of its creation. A malformed id is simply not found (404).',
  schema: { type: 'string', pattern: BACKFILL_ID_PATTERN.source },
};

/**
 * What the document says about each route of the route table. Keyed by `METHOD /path`, so a
 * route added to the table does not compile until it is described here.
 */
const OPERATIONS: { [K in RouteKey]: OperationDoc } = {
  'POST /exports': {
    operationId: 'startExport',
    summary: 'Start an export',
    description:
      'Records the export and starts its polling workflow; OpenWeb is asked by the workflow, not in this request. One export per spot at a time: while the spot is busy, a start is refused with 409, or queued with `"whenBusy": "queue"`. With `Idempotency-Key`, a repeated request gets the same answer (the export\'s current state) with `Idempotent-Replayed: true`.',
    requestBody: startExportBodySchema,
    idempotencyKey: true,
    success: {
      status: 202,
      description:
        'Accepted: the export, `REQUESTED`, or `QUEUED` with its place in the queue (on a replay, its current state). Read it back at `Location`.',
      schema: exportViewSchema,
      headers: {
        Location: {
          description: 'Where the export can be read: `/exports/{exportId}`.',
          required: true,
          schema: { type: 'string' },
        },
        'Idempotent-Replayed': {
          description: 'Present on the answer to a repeated `Idempotency-Key`.',
          required: false,
          schema: { type: 'string', const: 'true' },
        },
      },
    },
    problems: [
      ProblemType.UNSUPPORTED_MEDIA_TYPE,
      ProblemType.SPOT_BUSY,
      ProblemType.IDEMPOTENCY_KEY_REUSED,
      ProblemType.SPOT_NOT_CONFIGURED,
      ProblemType.CREDENTIALS_UNAVAILABLE,
    ],
  },
  'GET /exports': {
    operationId: 'listExports',
    summary: "List the spot's exports",
    description:
      'Newest first, a page at a time; with `status=QUEUED`, in queue order. Unknown query parameters are refused.',
    query: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Exports per page (default ${DEFAULT_LIST_LIMIT}).`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT },
      },
      {
        name: 'nextToken',
        in: 'query',
        required: false,
        description: '`nextToken` of the previous page.',
        schema: { type: 'string', maxLength: MAX_NEXT_TOKEN_CHARS, pattern: NEXT_TOKEN_PATTERN.source },
      },
      {
        name: 'status',
        in: 'query',
        required: false,
        description: 'Only exports in this status.',
        schema: { type: 'string', enum: [...EXPORT_STATUSES] },
      },
    ],
    success: { status: 200, description: 'A page of exports.', schema: exportListSchema },
    problems: [],
  },
  'GET /exports/{exportId}': {
    operationId: 'getExport',
    summary: 'Read an export',
    description:
      'The export as recorded; OpenWeb is asked only when the record is older than the configured freshness and the export is still running.',
    success: { status: 200, description: 'The export.', schema: exportViewSchema },
    problems: [ProblemType.EXPORT_NOT_FOUND, ProblemType.EXPORT_CHANGED_CONCURRENTLY, ...UPSTREAM_PROBLEMS],
  },
  'GET /exports/{exportId}/files': {
    operationId: 'getExportFiles',
    summary: "List an export's archived files",
    description: `The archive's state and, once ARCHIVED, its files with their size, SHA-256, rows and a URL that downloads the stored \`.csv.gz\` with no credentials until \`urlExpiresAt\`, ${FILES_PAGE_SIZE} a page: follow \`nextToken\` for the rest. The files outlive OpenWeb's links. Unknown query parameters are refused.`,
    query: [
      {
        name: 'nextToken',
        in: 'query',
        required: false,
        description: '`nextToken` of the previous page.',
        schema: { type: 'string', pattern: FILES_NEXT_TOKEN_PATTERN.source },
      },
    ],
    success: {
      status: 200,
      description: 'The archive and a page of its files.',
      schema: archivedFilesSchema,
    },
    problems: [ProblemType.EXPORT_NOT_FOUND],
  },
  'POST /exports/{exportId}/abort': {
    operationId: 'abortExport',
    summary: 'Abort an export',
    description:
      'Aborts the export at OpenWeb and stops its workflow; a QUEUED export leaves its queue, nothing sent to OpenWeb. Safe to repeat: an aborted export is answered again; a completed or failed one is 409.',
    success: {
      status: 202,
      description: 'The export, `ABORTED` (or `ABORTING` while OpenWeb is retried).',
      schema: exportViewSchema,
    },
    problems: [
      ProblemType.EXPORT_NOT_FOUND,
      ProblemType.EXPORT_ALREADY_FINISHED,
      ProblemType.EXPORT_CHANGED_CONCURRENTLY,
      ...UPSTREAM_PROBLEMS,
    ],
  },
  'GET /spots/{spotId}/coverage': {
    operationId: 'getSpotCoverage',
    summary: "Read the spot's coverage",
    description:
      "Which hours of the spot are archived, being exported, given up on (gaps, with their reasons) or not planned, from the coverage ledger, with every schedule's watermark and a summary in hours; hours more than one window exports are shown as overlaps. Read only: OpenWeb is not asked, and a spot nothing was planned for answers with every hour not planned. A page holds up to `limit` windows and ends where the next window starts: follow `nextToken` for the rest of the range. Unknown query parameters are refused.",
    query: [
      {
        name: 'from',
        in: 'query',
        required: false,
        description: `Start of the range. Default: the start of the spot's earliest window, but no earlier than \`until\` − ${DEFAULT_COVERAGE_RANGE_DAYS} days.`,
        schema: coverageInstant('An RFC 3339 UTC instant to the second.'),
      },
      {
        name: 'until',
        in: 'query',
        required: false,
        description: `End of the range (excluded), after \`from\`, at most ${MAX_COVERAGE_RANGE_DAYS} days later. Default: now.`,
        schema: coverageInstant('An RFC 3339 UTC instant to the second.'),
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Windows per page (default ${DEFAULT_COVERAGE_PAGE_WINDOWS}).`,
        schema: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_COVERAGE_PAGE_WINDOWS,
          default: DEFAULT_COVERAGE_PAGE_WINDOWS,
        },
      },
      {
        name: 'nextToken',
        in: 'query',
        required: false,
        description: '`nextToken` of the previous page (with the same `from` and `until`, or none).',
        schema: { type: 'string', maxLength: MAX_NEXT_TOKEN_CHARS, pattern: NEXT_TOKEN_PATTERN.source },
      },
    ],
    success: { status: 200, description: "A page of the spot's coverage.", schema: spotCoverageSchema },
    problems: [],
  },
  'POST /spots/{spotId}/backfills': {
    operationId: 'startBackfill',
    summary: "Backfill a range of the spot's history",
    description:
      "Plans `[from, until)` into windows of at most `windowHours`, skipping every hour the coverage ledger already holds (covered, in flight or retrying; a gap is exported again), and queues one export per window behind the spot's scheduled runs: one runs at a time, the next starts as the previous one ends. OpenWeb is asked by the exports' workflows, not in this request. A plan too long to record within a few seconds answers `recording: true`; the reconciler records the rest. With `Idempotency-Key`, a repeated request gets the same backfill with `Idempotent-Replayed: true`.",
    requestBody: backfillRequestSchema,
    idempotencyKey: true,
    success: {
      status: 202,
      description: 'Accepted: the backfill, its plan and where it stands. Read it back at `Location`.',
      schema: backfillViewSchema,
      headers: {
        Location: {
          description: 'Where the backfill can be read: `/spots/{spotId}/backfills/{backfillId}`.',
          required: true,
          schema: { type: 'string' },
        },
        'Idempotent-Replayed': {
          description: 'Present on the answer to a repeated `Idempotency-Key`.',
          required: false,
          schema: { type: 'string', const: 'true' },
        },
      },
    },
    problems: [
      ProblemType.UNSUPPORTED_MEDIA_TYPE,
      ProblemType.IDEMPOTENCY_KEY_REUSED,
      ProblemType.SPOT_NOT_CONFIGURED,
      ProblemType.CREDENTIALS_UNAVAILABLE,
    ],
  },
  'GET /spots': {
    operationId: 'listSpots',
    summary: 'The fleet at a glance',
    description:
      "Every spot the deployment knows (configured, or with an export running or queued), by id, a page at a time: how far its data reaches (`coveredUntil`), how far behind it is against its freshness target and whether it is stale, the export holding it, its queue, its open backfills, its gaps of the last 30 days with the newest reason, and its last failure. Names no spot: in JWT or IAM per-spot mode the answer holds the caller's spots only.",
    query: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Spots per page (default ${DEFAULT_FLEET_PAGE_SPOTS}).`,
        schema: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_FLEET_PAGE_SPOTS,
          default: DEFAULT_FLEET_PAGE_SPOTS,
        },
      },
      {
        name: 'nextToken',
        in: 'query',
        required: false,
        description: '`nextToken` of the previous page.',
        schema: { type: 'string', maxLength: MAX_NEXT_TOKEN_CHARS, pattern: NEXT_TOKEN_PATTERN.source },
      },
      {
        name: 'spotId',
        in: 'query',
        required: false,
        description: `Only these spots, comma-separated (at most ${MAX_FLEET_QUERY_SPOTS}); an unknown one is refused with 404 \`spot-not-found\`.`,
        schema: { type: 'string' },
      },
    ],
    success: { status: 200, description: 'A page of spots.', schema: fleetPageSchema },
    problems: [ProblemType.SPOT_NOT_FOUND],
  },
  'GET /spots/{spotId}/backfills': {
    operationId: 'listBackfills',
    summary: "List the spot's backfills",
    description:
      'Newest first, a page at a time, each with where it stands (as `GET /spots/{spotId}/backfills/{backfillId}`).',
    query: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Backfills per page (default ${BACKFILL_LIST_DEFAULT_LIMIT}, at most ${BACKFILL_LIST_MAX_LIMIT}).`,
        schema: {
          type: 'integer',
          minimum: 1,
          maximum: BACKFILL_LIST_MAX_LIMIT,
          default: BACKFILL_LIST_DEFAULT_LIMIT,
        },
      },
      {
        name: 'nextToken',
        in: 'query',
        required: false,
        description: '`nextToken` of the previous page.',
        schema: { type: 'string', maxLength: MAX_NEXT_TOKEN_CHARS, pattern: NEXT_TOKEN_PATTERN.source },
      },
    ],
    success: { status: 200, description: "A page of the spot's backfills.", schema: backfillListSchema },
    problems: [],
  },
  'GET /spots/{spotId}/backfills/{backfillId}': {
    operationId: 'getBackfill',
    summary: 'Read a backfill',
    description:
      "Where the backfill stands: its windows by state (done, running, queued, retrying, gaps), rows archived so far, the time since it started and an estimate of the time left from the spot's recent export durations, and each window's state.",
    success: { status: 200, description: 'The backfill.', schema: backfillViewSchema },
    problems: [ProblemType.BACKFILL_NOT_FOUND],
  },
  'POST /spots/{spotId}/backfills/{backfillId}/abort': {
    operationId: 'abortBackfill',
    summary: 'Abort a backfill',
    description:
      "Withdraws the backfill's unfinished windows from the coverage ledger and aborts their exports: queued ones leave the queue with nothing sent to OpenWeb, the running one is aborted at OpenWeb. Archived windows are kept. Safe to repeat.",
    success: { status: 202, description: 'The backfill, `ABORTED`.', schema: backfillViewSchema },
    problems: [ProblemType.BACKFILL_NOT_FOUND, ...UPSTREAM_PROBLEMS],
  },
  'POST /spots/{spotId}/erasures': {
    operationId: 'requestErasure',
    summary: "Erase a user from the spot's archive",
    description:
      "Puts the user on the spot's suppression list (every export archived from now on is stored without their rows) and records the erasure `RUNNING`; it then runs without a caller, rewriting every archived file of the spot that holds the user's rows, deleting the old versions, and checking at the end that no file and no table row holds the user. The same user asked for again is the same erasure (its id is derived from the spot and the user); a `FAILED` one is taken up again.",
    requestBody: erasureRequestSchema,
    success: {
      status: 202,
      description: 'Accepted: the erasure and where it stands. Read it back at `Location`.',
      schema: erasureViewSchema,
      headers: {
        Location: {
          description: 'Where the erasure can be read: `/spots/{spotId}/erasures/{erasureId}`.',
          required: true,
          schema: { type: 'string' },
        },
      },
    },
    problems: [ProblemType.UNSUPPORTED_MEDIA_TYPE],
  },
  'GET /spots/{spotId}/erasures': {
    operationId: 'listErasures',
    summary: "List the spot's erasures",
    description: 'Newest first, a page at a time (as `GET /spots/{spotId}/erasures/{erasureId}`).',
    query: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Erasures per page (default ${ERASURE_LIST_DEFAULT_LIMIT}, at most ${ERASURE_LIST_MAX_LIMIT}).`,
        schema: {
          type: 'integer',
          minimum: 1,
          maximum: ERASURE_LIST_MAX_LIMIT,
          default: ERASURE_LIST_DEFAULT_LIMIT,
        },
      },
      {
        name: 'nextToken',
        in: 'query',
        required: false,
        description: '`nextToken` of the previous page.',
        schema: { type: 'string', maxLength: MAX_NEXT_TOKEN_CHARS, pattern: NEXT_TOKEN_PATTERN.source },
      },
    ],
    success: { status: 200, description: "A page of the spot's erasures.", schema: erasureListSchema },
    problems: [],
  },
  'GET /spots/{spotId}/erasures/{erasureId}': {
    operationId: 'getErasure',
    summary: 'Read an erasure',
    description:
      'Where the erasure stands (`RUNNING`, `COMPLETED`, `FAILED` with its reason), the files it rewrote with the rows removed from each, when it completed, and its verification: the checks it ran at the end (the files read again, the versions listed, the query of the table) and what they found.',
    success: { status: 200, description: 'The erasure.', schema: erasureViewSchema },
    problems: [ProblemType.ERASURE_NOT_FOUND],
  },
};

/** API Gateway's own answers, which no function builds. */
const GATEWAY_ANSWERS: Record<HttpStatus, string> = {
  401: 'JWT mode: the bearer token is missing or invalid (API Gateway, `{"message":"Unauthorized"}`).',
  403: 'IAM mode: the signature is invalid or the caller may not invoke the API (API Gateway, `{"message":"Forbidden"}`).',
  429: 'The stage throttle was hit (API Gateway, `{"message":"Too Many Requests"}`).',
  503: 'The function did not answer within API Gateway\'s 29 s (API Gateway, `{"message":"Service Unavailable"}`).',
};

const SCHEMA_REF_PREFIX = '#/components/schemas/';

function idOf(schema: ComponentSchema): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (id === undefined) throw new Error('every component schema has an id');
  return id;
}

function schemaRef(schema: ComponentSchema): JsonObject {
  return { $ref: `${SCHEMA_REF_PREFIX}${idOf(schema)}` };
}

/** `components.schemas`: the zod schemas as JSON Schema 2020-12, referring to each other by `$ref`. */
function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const schema of COMPONENT_SCHEMAS) registry.add(schema, { id: idOf(schema) });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    // As output, an answer's object lists exactly the members the API sends (no additional
    // properties); the request bodies are strict objects, which refuse unknown fields either way.
    io: 'output',
    uri: (id) => `${SCHEMA_REF_PREFIX}${id}`,
  });
  return Object.fromEntries(
    COMPONENT_SCHEMAS.map((schema) => {
      const { $schema: _dialect, $id: _id, ...jsonSchema } = schemas[idOf(schema)] as JsonObject;
      return [idOf(schema), jsonSchema];
    }),
  );
}

function problemContent(status: HttpStatus, types: readonly string[]): JsonObject {
  return {
    [PROBLEM_CONTENT_TYPE]: {
      schema: {
        allOf: [
          schemaRef(problemSchema),
          { type: 'object', properties: { status: { const: status }, type: { enum: types } } },
        ],
      },
    },
  };
}

function gatewayContent(): JsonObject {
  return { [JSON_CONTENT_TYPE]: { schema: schemaRef(gatewayMessageSchema) } };
}

function errorResponses(operation: OperationDoc): Record<string, JsonObject> {
  const byStatus = new Map<HttpStatus, ProblemType[]>();
  for (const type of new Set([...EVERY_ROUTE_PROBLEMS, ...operation.problems])) {
    const { status } = PROBLEMS[type];
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  const responses: Record<string, JsonObject> = {};
  const statuses = [
    ...new Set([
      ...byStatus.keys(),
      ...Object.keys(GATEWAY_ANSWERS).map(Number),
      INTERNAL_ERROR_PROBLEM.status,
    ]),
  ];
  for (const status of statuses.sort((a, b) => a - b)) {
    const types = byStatus.get(status) ?? [];
    const gateway = GATEWAY_ANSWERS[status];
    const lines = types.map((type) => `\`${type}\`: ${PROBLEM_MEANINGS[type]}.`);
    if (status === INTERNAL_ERROR_PROBLEM.status)
      lines.push('`about:blank`: an unexpected failure; nothing about it is shown. Retry later.');
    if (gateway !== undefined) lines.push(gateway);
    const problemTypes =
      status === INTERNAL_ERROR_PROBLEM.status ? ['about:blank'] : types.map((type) => `/problems/${type}`);
    const response: JsonObject = {
      description: lines.join('\n\n'),
      content: {
        ...(problemTypes.length > 0 && problemContent(status, problemTypes)),
        ...(gateway !== undefined && gatewayContent()),
      },
    };
    if (types.includes(ProblemType.UPSTREAM_RATE_LIMITED)) {
      response.headers = {
        'Retry-After': {
          description: 'With `upstream-rate-limited`, when OpenWeb said: seconds to wait before retrying.',
          required: false,
          schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
        },
      };
    }
    if (types.includes(ProblemType.UNSUPPORTED_MEDIA_TYPE)) {
      response.headers = {
        'Accept-Post': {
          description: 'The media type the body must have.',
          required: true,
          schema: { type: 'string', const: JSON_CONTENT_TYPE },
        },
      };
    }
    responses[String(status)] = response;
  }
  return responses;
}

function operationObject(operation: OperationDoc, spotInPath: boolean, fleetWide: boolean): JsonObject {
  // A route under /spots/{spotId} names its spot in the path (a parameter of the path item); a
  // fleet-wide read names none.
  const parameters: JsonObject[] =
    spotInPath || fleetWide ? [] : [{ $ref: '#/components/parameters/SpotId' }];
  if (operation.idempotencyKey) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  parameters.push(...(operation.query ?? []));
  const { success } = operation;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    parameters,
    ...(operation.requestBody !== undefined && {
      requestBody: {
        required: true,
        content: { [JSON_CONTENT_TYPE]: { schema: schemaRef(operation.requestBody) } },
      },
    }),
    responses: {
      [String(success.status)]: {
        description: success.description,
        ...(success.headers !== undefined && { headers: success.headers }),
        content: { [JSON_CONTENT_TYPE]: { schema: schemaRef(success.schema) } },
      },
      ...errorResponses(operation),
    },
  };
}

function paths(): Record<string, JsonObject> {
  const result: Record<string, JsonObject> = {};
  for (const route of ROUTES) {
    const operation = OPERATIONS[routeKey(route) as RouteKey];
    const item = result[route.path] ?? {};
    result[route.path] = item;
    const parameters = [
      ...(route.path.includes('{spotId}') ? [spotIdPathParameter] : []),
      ...(route.path.includes('{exportId}') ? [exportIdParameter] : []),
      ...(route.path.includes('{backfillId}') ? [backfillIdParameter] : []),
      ...(route.path.includes('{erasureId}') ? [erasureIdParameter] : []),
    ];
    if (parameters.length > 0) item.parameters = parameters;
    item[route.method.toLowerCase()] = operationObject(
      operation,
      route.path.includes('{spotId}'),
      FLEET_ROUTE_KEYS.includes(routeKey(route)),
    );
  }
  return result;
}

function packageVersion(): string {
  const packageJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  return packageJson.version;
}

/** The OpenAPI 3.1 description of the HTTP API, built from the route table and the schemas. */
export function openApiDocument(): JsonObject {
  return {
    openapi: '3.1.1',
    info: {
      title: 'openweb-exports',
      version: packageVersion(),
      summary: "Start, list, read and abort OpenWeb comment exports, and backfill a spot's history.",
      description:
        'Every request names its spot: in `x-spot-id`, or in the path under `/spots/{spotId}`. Errors are RFC 9457 problem details (`application/problem+json`); branch on `type`. Deployed, API Gateway authorizes every request with one of the two schemes, as the stack is configured: IAM (SigV4, the default) or a JWT bearer token. Locally (`npm start`) there is no authorization.',
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      {
        url: `http://127.0.0.1:${SETTINGS.localApiPort.default}`,
        description: 'The local runtime (`npm start`).',
      },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
        description: 'A deployment: the stack output `ApiUrl`.',
        variables: { apiId: { default: 'abc123' }, region: { default: 'eu-west-1' } },
      },
    ],
    security: [{ sigv4: [] }, { jwt: [] }],
    paths: paths(),
    components: {
      schemas: componentSchemas(),
      parameters: {
        SpotId: {
          name: SPOT_ID_HEADER,
          in: 'header',
          required: true,
          description:
            'The spot the request acts for. In JWT mode with a spot claim, the token must list it.',
          schema: { type: 'string', pattern: SPOT_ID_PATTERN.source },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: `A key of your choice (1 to ${MAX_IDEMPOTENCY_KEY_CHARS} printable ASCII characters): a repeated request with it gets the first answer. Header \`${IDEMPOTENCY_KEY_HEADER}\`.`,
          schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
        },
      },
      securitySchemes: {
        sigv4: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'IAM mode (the default): AWS Signature Version 4 for service `execute-api`; the caller needs `execute-api:Invoke` on the API.',
          'x-amazon-apigateway-authtype': 'awsSigv4',
        },
        jwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'JWT mode: a token of the configured issuer and audience (and scopes, when configured). With `auth.spotClaim`, the claim must list the `x-spot-id`.',
        },
      },
    },
  };
}

/** The document as committed: two-space JSON and a final newline. */
export function openApiDocumentText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
