/** Spot ids look like `sp_abc123`; anything else is refused before it reaches a secret name or a header. */
export const SPOT_ID_PATTERN = /^sp_[A-Za-z0-9_-]{1,64}$/;

/** What a caller is told of a spot id that does not have that shape. */
export const SPOT_ID_MESSAGE = 'must look like sp_<letters, digits, _ or ->';
