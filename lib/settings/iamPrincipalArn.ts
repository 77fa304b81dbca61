/**
 * An IAM role or user as configured: `arn:<partition>:iam::<account>:role/<path/>name` or
 * `…:user/<path/>name`. Names only: no wildcard, no session, no root. Groups: partition,
 * account, `role` or `user`, name.
 */
export const IAM_PRINCIPAL_ARN =
  /^arn:(aws[a-z-]*):iam::(\d{12}):(role|user)\/(?:[\w+=,.@-]+\/)*([\w+=,.@-]{1,128})$/;

/** Whether `arn` names an IAM role or user (the keys of `auth.spotsByPrincipal`). */
export function isIamPrincipalArn(arn: string): boolean {
  return IAM_PRINCIPAL_ARN.test(arn);
}
