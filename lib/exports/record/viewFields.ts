import * as z from 'zod/mini';
import { EXPORT_ID_PATTERN } from './exportId';
import { SPOT_ID_PATTERN } from './spotId';

/**
 * Fields the API's answers share, as zod/mini schemas with the OpenAPI document's descriptions.
 * Like every schema of an answer, only their types reach the functions: a function
 * imports nothing here but types, so none of it is bundled.
 */

export const exportIdField = z
  .string()
  .check(
    z.regex(EXPORT_ID_PATTERN),
    z.describe('Our id of the export: `ex_` and 26 characters that sort by creation time.'),
  );

export const spotIdField = z.string().check(z.regex(SPOT_ID_PATTERN), z.describe('The OpenWeb spot.'));

/** An instant with milliseconds, as the service records them. */
export const instantField = z
  .string()
  .check(z.describe('An ISO 8601 instant in UTC, like `2026-01-31T00:00:00.000Z`.'));

/** An instant to the second, as the bounds of windows and ranges are. */
export const secondInstantField = z
  .string()
  .check(z.describe('An RFC 3339 instant in UTC to the second, like `2026-01-31T00:00:00Z`.'));
