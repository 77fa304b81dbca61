import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { IAM_PRINCIPAL_ARN } from '../settings/iamPrincipalArn';

/** A role session as API Gateway reports the signer: `arn:<partition>:sts::<account>:assumed-role/<name>/<session>`. */
const ASSUMED_ROLE_ARN = /^arn:(aws[a-z-]*):sts::(\d{12}):assumed-role\/([\w+=,.@-]{1,128})\/[\w+=,.@-]+$/;

/**
 * The role or user an ARN stands for, as `arn:<partition>:iam::<account>:<role|user>/<name>`:
 * a role's sessions are the role, and paths are dropped (role and user names are unique per
 * account whatever their path; a session's ARN carries no path). Undefined for anything else
 * (the root user, a federated user, not an ARN).
 */
export function principalKey(arn: string): string | undefined {
  const principal = IAM_PRINCIPAL_ARN.exec(arn);
  if (principal !== null) return `arn:${principal[1]}:iam::${principal[2]}:${principal[3]}/${principal[4]}`;
  const session = ASSUMED_ROLE_ARN.exec(arn);
  if (session !== null) return `arn:${session[1]}:iam::${session[2]}:role/${session[3]}`;
  return undefined;
}

/**
 * The role or user whose SigV4 signature API Gateway's IAM authorizer verified, as
 * `principalKey` names it; undefined when no IAM signature authorized the request.
 */
export function iamPrincipalOf(event: APIGatewayProxyEventV2): string | undefined {
  const { authorizer } = event.requestContext as { authorizer?: { iam?: { userArn?: unknown } } };
  const userArn = authorizer?.iam?.userArn;
  return typeof userArn === 'string' ? principalKey(userArn) : undefined;
}
