import type { AwsAccount } from './awsStandIns';
import { type Deployment, resolveValue } from './iamPolicy';

interface TemplateResources {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

/** The names a run gives the resources CloudFormation would name itself, by resource type. */
export interface PhysicalNames {
  tableName: string;
  bucketName: string;
  /** The UUID CloudFormation gives this instance of the stack (the end of its stack id). */
  stackUuid: string;
}

/**
 * A template's resources as deployed in `account`: what `Ref` and `Fn::GetAtt …Arn` return
 * for each type the functions' grants and environment name. A type not listed here is refused
 * by name, so a grant on a new kind of resource cannot be checked against a guessed ARN.
 */
export function templateDeployment(
  template: TemplateResources,
  account: AwsAccount,
  names: PhysicalNames,
): Deployment {
  const { partition, region, accountId } = account;
  const arn = (service: string, resource: string) =>
    `arn:${partition}:${service}:${region}:${accountId}:${resource}`;
  const resourceOf = (logicalId: string) => {
    const resource = template.Resources[logicalId];
    if (resource === undefined) throw new Error(`No resource ${logicalId} in the template`);
    return { type: resource.Type, properties: resource.Properties ?? {} };
  };
  const stackId = `arn:${partition}:cloudformation:${region}:${accountId}:stack/OpenWebExports/${names.stackUuid}`;
  // A name built from the stack's own values (its id, region) is resolved like any other value.
  const named = (properties: Record<string, unknown>, property: string, fallback: string): string => {
    const value = properties[property];
    if (value === undefined) return fallback;
    return resolveValue(value, deployment);
  };
  const describe = (logicalId: string): { name: string; arn: string; ref?: string } => {
    const { type, properties } = resourceOf(logicalId);
    switch (type) {
      case 'AWS::DynamoDB::Table': {
        const name = named(properties, 'TableName', names.tableName);
        return { name, arn: arn('dynamodb', `table/${name}`) };
      }
      case 'AWS::S3::Bucket': {
        const name = named(properties, 'BucketName', names.bucketName);
        return { name, arn: `arn:${partition}:s3:::${name}` };
      }
      case 'AWS::Events::EventBus': {
        const name = named(properties, 'Name', logicalId);
        return { name, arn: arn('events', `event-bus/${name}`) };
      }
      case 'AWS::StepFunctions::StateMachine': {
        const name = named(properties, 'StateMachineName', logicalId);
        const stateMachineArn = arn('states', `stateMachine:${name}`);
        return { name, arn: stateMachineArn, ref: stateMachineArn };
      }
      case 'AWS::Logs::LogGroup': {
        const name = named(properties, 'LogGroupName', `/aws/lambda/${logicalId}`);
        return { name, arn: arn('logs', `log-group:${name}:*`) };
      }
      case 'AWS::SQS::Queue': {
        const name = named(properties, 'QueueName', logicalId);
        return {
          name,
          arn: arn('sqs', name),
          ref: `https://sqs.${region}.amazonaws.com/${accountId}/${name}`,
        };
      }
      case 'AWS::Lambda::Function': {
        const name = named(properties, 'FunctionName', logicalId);
        return { name, arn: arn('lambda', `function:${name}`) };
      }
      case 'AWS::IAM::Role': {
        const name = named(properties, 'RoleName', logicalId);
        return { name, arn: `arn:${partition}:iam::${accountId}:role/${name}` };
      }
      default:
        throw new Error(`The check does not know what ${type} (${logicalId}) is named when deployed`);
    }
  };
  const deployment: Deployment = {
    partition,
    region,
    accountId,
    stackId,
    ref: (logicalId) => {
      const described = describe(logicalId);
      return described.ref ?? described.name;
    },
    getAtt: (logicalId, attribute) => {
      const described = describe(logicalId);
      if (attribute === 'Arn') return described.arn;
      if (attribute === 'Name') return described.name;
      if (attribute === 'RegionalDomainName' && resourceOf(logicalId).type === 'AWS::S3::Bucket')
        return `${described.name}.s3.${region}.amazonaws.com`;
      throw new Error(`The check does not resolve ${logicalId}.${attribute}`);
    },
  };
  return deployment;
}
