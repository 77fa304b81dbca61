/** The upstream calls the simulator serves, as named in fault configuration and the request log. */
export const SIMULATOR_ENDPOINTS = ['auth', 'create', 'status', 'abort', 'list', 'download'] as const;

export type SimulatorEndpoint = (typeof SIMULATOR_ENDPOINTS)[number];
