/** Why a create the workflow could not send yet is waiting: the kinds a caller is told. */
export const UpstreamWaitKind = {
  THROTTLED: 'throttled',
  UNAVAILABLE: 'unavailable',
  AUTH_PACED: 'auth-paced',
  TIMEOUT: 'timeout',
} as const;

export type UpstreamWaitKind = (typeof UpstreamWaitKind)[keyof typeof UpstreamWaitKind];
