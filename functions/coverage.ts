import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { spotCoverage } from '../lib/exports/coverage/spotCoverage';
import type { ExportDependencies } from '../lib/exports/ExportDependencies';
import { isApiGatewayEvent } from '../lib/http/apiGatewayEvent';
import { jsonResponse } from '../lib/http/jsonResponse';
import { readCoverageRequest } from '../lib/http/readCoverageRequest';
import { HandlerNames } from '../lib/http/routeTable';
import { dynamoDbCoverageLedgerFactory } from '../lib/runtime/adapterFactories/dynamoDbFactories';
import { createHandler } from '../lib/runtime/createHandler';
import { defaultHandlerRuntime } from '../lib/runtime/defaultHandlerRuntime';
import { UnrecognisedEventError } from '../lib/runtime/errors';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';

/** Coverage reads the ledger and nothing else. */
type CoverageDependencies = Pick<ExportDependencies, 'coverage' | 'now'>;

/** `GET /spots/{spotId}/coverage?from=&until=&limit=&nextToken=`: which hours of the spot are covered. */
export function makeCoverageHandler(runtime: HandlerRuntime<CoverageDependencies>) {
  return createHandler(runtime, async (event, deps) => {
    if (isApiGatewayEvent(event)) return coverageFromApi(deps, event);
    throw new UnrecognisedEventError(HandlerNames.COVERAGE);
  });
}

// The table, queried: no writes, no secrets, no workflows, no bus, no upstream.
export const handler = makeCoverageHandler(
  defaultHandlerRuntime({ coverage: dynamoDbCoverageLedgerFactory }),
);

/** 200 with the page; pass `nextToken` back for the rest of the range. */
async function coverageFromApi(
  deps: CoverageDependencies,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const query = readCoverageRequest(event, deps.now());
  return jsonResponse(200, await spotCoverage(deps, query));
}
