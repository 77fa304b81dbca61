/**
 * How the failure reasons the lifecycle writes begin, for the readers that tell them apart (the
 * coverage ledger decides from them whether a window is exported again). The rest of a reason
 * says why, in the words of the error that caused it.
 */

/** The upstream refused the request itself: the same request would be refused again. */
export const REQUEST_REJECTED_REASON_PREFIX = 'the upstream rejected the request: ';
/** The create was refused for another reason (credentials, access, the spot held elsewhere): it may pass. */
export const CREATE_REFUSED_REASON_PREFIX = 'the create was refused: ';
/** The deadline passed while the export ran upstream: it was aborted there. */
export const DEADLINE_PASSED_REASON = 'polling deadline passed';
/** The deadline passed before the create was accepted: nothing was sent. */
export const DEADLINE_PASSED_BEFORE_CREATE_REASON =
  'deadline passed before the upstream accepted the create; nothing was sent';
