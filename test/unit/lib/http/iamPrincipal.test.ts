import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { iamPrincipalOf, principalKey } from '../../../../lib/http/iamPrincipal';
import { apiRequests } from '../../../support/apiGatewayEvents';

function signedBy(userArn: string): APIGatewayProxyEventV2 {
  const event = apiRequests.list('sp_demo');
  return {
    ...event,
    requestContext: {
      ...event.requestContext,
      authorizer: { iam: { accountId: '123456789012', userArn, userId: 'AROAEXAMPLE:session' } },
    },
  } as APIGatewayProxyEventV2;
}

describe('principalKey', () => {
  it.each([
    [
      'a role',
      'arn:aws:iam::123456789012:role/exports-marketing',
      'arn:aws:iam::123456789012:role/exports-marketing',
    ],
    [
      'a role with a path',
      'arn:aws:iam::123456789012:role/teams/exports-marketing',
      'arn:aws:iam::123456789012:role/exports-marketing',
    ],
    ['a user', 'arn:aws:iam::123456789012:user/ci/robot', 'arn:aws:iam::123456789012:user/robot'],
    [
      'a session of a role',
      'arn:aws:sts::123456789012:assumed-role/exports-marketing/alice',
      'arn:aws:iam::123456789012:role/exports-marketing',
    ],
    [
      'another partition',
      'arn:aws-cn:sts::123456789012:assumed-role/r/s',
      'arn:aws-cn:iam::123456789012:role/r',
    ],
  ])('names %s as IAM does whatever its path (names are unique per account)', (_kind, arn, key) => {
    // Act / Assess
    expect(principalKey(arn)).toBe(key);
  });

  it.each([
    ['the root user', 'arn:aws:iam::123456789012:root'],
    ['a federated user', 'arn:aws:sts::123456789012:federated-user/bob'],
    ['not an ARN', 'exports-marketing'],
  ])('names nothing for %s', (_kind, arn) => {
    // Act / Assess
    expect(principalKey(arn)).toBeUndefined();
  });
});

describe('iamPrincipalOf', () => {
  it('reads the signer API Gateway verified', () => {
    // Act
    const principal = iamPrincipalOf(
      signedBy('arn:aws:sts::123456789012:assumed-role/exports-marketing/alice'),
    );

    // Assess
    expect(principal).toBe('arn:aws:iam::123456789012:role/exports-marketing');
  });

  it('reads nothing from a request no IAM signature authorized', () => {
    // Act / Assess
    expect(iamPrincipalOf(apiRequests.list('sp_demo'))).toBeUndefined();
  });
});
