import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../store/createDocumentClient';

/** The AWS SDK clients the functions use; tests and the local runtime pass their own. */
export interface AwsClients {
  documentClient: DynamoDBDocumentClient;
  stepFunctions: SFNClient;
  eventBridge: EventBridgeClient;
  secretsManager: SecretsManagerClient;
}

/** Bounds every AWS call, so one stuck connection cannot eat an API request's 29 s. */
export const AWS_REQUEST_TIMEOUT_MS = 5_000;
export const AWS_CONNECTION_TIMEOUT_MS = 1_000;

/** Every AWS client's bounds on connecting and on one request. */
export const AWS_REQUEST_HANDLER = {
  requestTimeout: AWS_REQUEST_TIMEOUT_MS,
  connectionTimeout: AWS_CONNECTION_TIMEOUT_MS,
};

/** Region and credentials come from the Lambda environment. */
export const awsClientFactories: { [K in keyof AwsClients]: () => AwsClients[K] } = {
  documentClient: () => createDocumentClient({ requestHandler: AWS_REQUEST_HANDLER }),
  stepFunctions: () => new SFNClient({ requestHandler: AWS_REQUEST_HANDLER }),
  eventBridge: () => new EventBridgeClient({ requestHandler: AWS_REQUEST_HANDLER }),
  secretsManager: () => new SecretsManagerClient({ requestHandler: AWS_REQUEST_HANDLER }),
};
