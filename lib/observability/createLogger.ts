import { Logger } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';
import { SETTINGS } from '../settings/settingsTable';

/** The service name every log line and metric carries (Powertools' `POWERTOOLS_SERVICE_NAME` overrides it). */
export const SERVICE_NAME = SETTINGS.powertoolsServiceName.default;

/** A structured JSON logger; level from `POWERTOOLS_LOG_LEVEL` unless given. */
export function createLogger(options: ConstructorOptions = {}): Logger {
  return new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME, ...options });
}
