import * as z from 'zod/mini';

/** Spot ids look like `sp_abc123`; anything else is refused before it reaches a secret name or a header. */
export const SPOT_ID_PATTERN = /^sp_[A-Za-z0-9_-]{1,64}$/;

export const SPOT_ID_MESSAGE = 'must look like sp_<letters, digits, _ or ->';

export const spotIdSchema = z
  .string({ error: SPOT_ID_MESSAGE })
  .check(z.regex(SPOT_ID_PATTERN, SPOT_ID_MESSAGE));
