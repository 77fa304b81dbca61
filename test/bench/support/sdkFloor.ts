// The SDK floor of the cold-start bench: what every function pays at load whatever it does, the
// DynamoDB document client and Powertools' Logger, imported and constructed. test/bench/coldstart.ts
// builds it with the function bundles' options and divides each function's module init by its own.
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The same construction as lib/observability/createLogger.ts. */
const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'sdk-floor' });
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}));

/** Uses both, so neither is dropped from the bundle. */
export const handler = async (): Promise<void> => {
  logger.debug('floor', { client: documentClient.constructor.name });
};
