import { Arn, ArnFormat, Aws, CfnRule, Fn, Stack, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { StackConfigError } from './stackConfig';

/**
 * A KMS key serves its own region only: S3 cannot encrypt with another region's key (every upload
 * would fail), nor Secrets Manager decrypt with one. When the stack names its region the setting
 * is refused at synthesis; otherwise a template rule refuses the deployment before anything is
 * created. `setting` names the configuration key (`archive.kmsKeyArn`).
 * @throws StackConfigError when the stack's region is known and is not the key's
 */
export function requireKeyInStackRegion(scope: Construct, id: string, keyArn: string, setting: string): void {
  const keyRegion = Arn.split(keyArn, ArnFormat.SLASH_RESOURCE_NAME).region as string;
  const stackRegion = Stack.of(scope).region;
  if (!Token.isUnresolved(stackRegion)) {
    if (stackRegion !== keyRegion) {
      throw new StackConfigError(
        [
          `props.${setting}: the key is in ${keyRegion}, the stack in ${stackRegion}; a KMS key serves its own region only`,
        ],
        'props',
      );
    }
    return;
  }
  new CfnRule(scope, id, {
    assertions: [
      {
        assert: Fn.conditionEquals(Aws.REGION, keyRegion),
        assertDescription: `${setting} names a KMS key in ${keyRegion}: deploy the stack to ${keyRegion}, or name a key of the stack's region`,
      },
    ],
  });
}
