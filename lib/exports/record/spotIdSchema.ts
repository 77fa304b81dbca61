import * as z from 'zod/mini';
import { schemaOnFirstUse } from './schemaOnFirstUse';
import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from './spotId';

/**
 * A spot id (./spotId.ts) within a zod schema, built by its first use. Apart from the pattern, so
 * the functions that only check a header with it (list, files) bundle no zod.
 */
export const spotIdSchema = schemaOnFirstUse(() =>
  z.string({ error: SPOT_ID_MESSAGE }).check(z.regex(SPOT_ID_PATTERN, SPOT_ID_MESSAGE)),
);
