import { Stack } from 'aws-cdk-lib';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference';
import type { IConstruct } from 'constructs';

/**
 * The cdk-nag finding id of an IAM wildcard resource (`AwsSolutions-IAM5[Resource::...]`),
 * flattened exactly as cdk-nag flattens it (`<Logical.Arn>:*`, `<AWS::Region>`), so each
 * acknowledgement names one resource pattern rather than a hand-copied logical id.
 */
export function iamWildcardResourceFindingId(scope: IConstruct, resourceArn: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(resourceArn))}]`;
}
