import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { FieldProblem } from '../errors/problems';
import {
  MAX_COVERAGE_PAGE_WINDOWS,
  MAX_COVERAGE_RANGE_DAYS,
  MAX_COVERAGE_RANGE_MS,
  type SpotCoverageQuery,
} from '../exports/coverage/spotCoverage';
import { parseUtcInstant } from '../exports/time/instants';
import { invalidRequest, unknownFieldName } from './invalidRequest';
import { MAX_NEXT_TOKEN_CHARS, NEXT_TOKEN_PATTERN } from './readListQuery';
import { readSpotId } from './readSpotId';

const DECIMAL = /^\d{1,4}$/;
const KNOWN_PARAMETERS = new Set(['from', 'until', 'limit', 'nextToken']);
const INSTANT_MESSAGE = 'must be an RFC 3339 UTC instant like 2026-01-31T00:00:00Z';

/**
 * `GET /spots/{spotId}/coverage?from=&until=&limit=&nextToken=`: the spot of the path (`x-spot-id`
 * may be left out or must name the same one; see readSpotId.ts), and the query.
 * Unknown parameters are refused so a typo is not ignored; `from` must come before `until` (now,
 * when not given) and the range may span at most 366 days. @throws ProblemError 400
 */
export function readCoverageRequest(event: APIGatewayProxyEventV2, nowMs: number): SpotCoverageQuery {
  const spotId = readSpotId(event);
  const problems: FieldProblem[] = [];
  const query: SpotCoverageQuery = { spotId };
  for (const [name, value = ''] of Object.entries(event.queryStringParameters ?? {})) {
    if (!KNOWN_PARAMETERS.has(name)) {
      problems.push({ field: unknownFieldName('query', name), message: 'is not a known parameter' });
    } else if (name === 'from' || name === 'until') {
      const ms = parseUtcInstant(value);
      if (ms === undefined) problems.push({ field: `query.${name}`, message: INSTANT_MESSAGE });
      else query[name === 'from' ? 'fromMs' : 'untilMs'] = ms;
    } else if (name === 'limit') {
      const limit = DECIMAL.test(value) ? Number(value) : Number.NaN;
      if (limit >= 1 && limit <= MAX_COVERAGE_PAGE_WINDOWS) query.limit = limit;
      else
        problems.push({
          field: 'query.limit',
          message: `must be an integer from 1 to ${MAX_COVERAGE_PAGE_WINDOWS}`,
        });
    } else if (value.length <= MAX_NEXT_TOKEN_CHARS && NEXT_TOKEN_PATTERN.test(value)) {
      query.nextToken = value;
    } else {
      problems.push({ field: 'query.nextToken', message: 'is not a token of this listing' });
    }
  }
  problems.push(...rangeProblems(query, nowMs));
  if (problems.length > 0) throw invalidRequest(problems);
  return query;
}

/** `from` before `until` (now, when not given), at most the longest range apart. */
function rangeProblems(query: SpotCoverageQuery, nowMs: number): FieldProblem[] {
  if (query.fromMs === undefined) return [];
  const untilGiven = query.untilMs !== undefined;
  const untilMs = query.untilMs ?? nowMs;
  // The field to fix: `until` when both were given, else `from` (until is the server's now).
  const field = untilGiven ? 'query.until' : 'query.from';
  if (query.fromMs >= untilMs)
    return [
      {
        field,
        message: untilGiven ? 'must be after from' : 'must be before until, which is now when not given',
      },
    ];
  if (untilMs - query.fromMs > MAX_COVERAGE_RANGE_MS)
    return [{ field, message: `the range may span at most ${MAX_COVERAGE_RANGE_DAYS} days` }];
  return [];
}
