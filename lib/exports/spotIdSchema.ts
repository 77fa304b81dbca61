import * as z from 'zod/mini';
import { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from './spotId';

/** A spot id (./spotId.ts) within a zod schema. */
export const spotIdSchema = z
  .string({ error: SPOT_ID_MESSAGE })
  .check(z.regex(SPOT_ID_PATTERN, SPOT_ID_MESSAGE));
