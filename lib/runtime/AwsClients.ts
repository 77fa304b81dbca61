import type { AthenaClient } from '@aws-sdk/client-athena';
import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { GlueClient } from '@aws-sdk/client-glue';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The AWS SDK clients the functions may use; tests and the local runtime pass their own. Each
 * adapter factory creates the client it needs (lib/runtime/adapterFactories), so a function
 * bundles only its own.
 */
export interface AwsClients {
  documentClient: DynamoDBDocumentClient;
  stepFunctions: SFNClient;
  eventBridge: EventBridgeClient;
  secretsManager: SecretsManagerClient;
  /** The archive bucket's. */
  s3: S3Client;
  /** The query table's catalog. */
  glue: GlueClient;
  /** The query table's engine (an erasure's check at its end). */
  athena: AthenaClient;
}

/** Bounds every AWS call, so one stuck connection cannot eat an API request's 29 s. */
export const AWS_REQUEST_TIMEOUT_MS = 5_000;
export const AWS_CONNECTION_TIMEOUT_MS = 1_000;

/** Every AWS client's bounds on connecting and on one request. */
export const AWS_REQUEST_HANDLER = {
  requestTimeout: AWS_REQUEST_TIMEOUT_MS,
  connectionTimeout: AWS_CONNECTION_TIMEOUT_MS,
};
