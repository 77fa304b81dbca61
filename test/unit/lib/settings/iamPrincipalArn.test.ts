import { describe, expect, it } from 'vitest';
import { isIamPrincipalArn } from '../../../../lib/settings/iamPrincipalArn';

describe('isIamPrincipalArn', () => {
  it('accepts role and user ARNs, nothing else', () => {
    // Act / Assess
    expect(isIamPrincipalArn('arn:aws:iam::123456789012:role/teams/exports')).toBe(true);
    expect(isIamPrincipalArn('arn:aws:iam::123456789012:user/robot')).toBe(true);
    expect(isIamPrincipalArn('arn:aws:sts::123456789012:assumed-role/exports/s')).toBe(false);
    expect(isIamPrincipalArn('arn:aws:iam::123456789012:role/*')).toBe(false);
    expect(isIamPrincipalArn('arn:aws:iam::123456789012:root')).toBe(false);
  });
});
