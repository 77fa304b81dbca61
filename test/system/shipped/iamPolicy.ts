/**
 * Just enough of CloudFormation and IAM to compare a synthesized template's grants with the
 * calls a function was seen to make: intrinsic functions resolved to strings for one account,
 * region and set of physical names, and IAM's wildcard matching of actions and resources.
 */

export interface Deployment {
  partition: string;
  region: string;
  accountId: string;
  /** `arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<uuid>`: new for every instance of the stack. */
  stackId: string;
  /** What `Ref` returns for a resource of the template (a name, an ARN or a URL, by type). */
  ref(logicalId: string): string;
  /** What `Fn::GetAtt` returns. */
  getAtt(logicalId: string, attribute: string): string;
}

export class UnresolvableTemplateValueError extends Error {
  constructor(value: unknown) {
    super(`Cannot resolve template value ${JSON.stringify(value)}`);
    this.name = 'UnresolvableTemplateValueError';
  }
}

/** A template value (string or Ref/Fn::GetAtt/Fn::Join/Fn::Sub/Fn::Select/Fn::Split) as a string. */
export function resolveValue(value: unknown, deployment: Deployment): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Object.keys(value).length !== 1)
    throw new UnresolvableTemplateValueError(value);
  const [name, argument] = Object.entries(value)[0] as [string, unknown];
  switch (name) {
    case 'Ref':
      return refOf(String(argument), deployment);
    case 'Fn::GetAtt': {
      const [logicalId, attribute] = Array.isArray(argument) ? argument : String(argument).split('.');
      return deployment.getAtt(String(logicalId), String(attribute));
    }
    case 'Fn::Join': {
      const [separator, parts] = argument as [string, unknown[]];
      return parts.map((part) => resolveValue(part, deployment)).join(separator);
    }
    case 'Fn::Select': {
      const [index, list] = argument as [unknown, unknown];
      const items = resolveList(list, deployment);
      const selected = items[typeof index === 'number' ? index : Number(resolveValue(index, deployment))];
      if (selected === undefined) throw new UnresolvableTemplateValueError(value);
      return selected;
    }
    case 'Fn::Sub': {
      const [text, variables] = Array.isArray(argument)
        ? (argument as [string, Record<string, unknown>])
        : [String(argument), {}];
      return text.replace(/\$\{([^}!][^}]*)\}/g, (_, variable: string) => {
        if (variable in variables) return resolveValue(variables[variable], deployment);
        const [logicalId, attribute] = variable.split('.');
        return attribute === undefined
          ? refOf(variable, deployment)
          : deployment.getAtt(logicalId as string, attribute);
      });
    }
    default:
      throw new UnresolvableTemplateValueError(value);
  }
}

function resolveList(value: unknown, deployment: Deployment): string[] {
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, deployment));
  if (typeof value === 'object' && value !== null && 'Fn::Split' in value) {
    const [separator, text] = (value as { 'Fn::Split': [string, unknown] })['Fn::Split'];
    return resolveValue(text, deployment).split(separator);
  }
  throw new UnresolvableTemplateValueError(value);
}

function refOf(name: string, deployment: Deployment): string {
  switch (name) {
    case 'AWS::Partition':
      return deployment.partition;
    case 'AWS::Region':
      return deployment.region;
    case 'AWS::AccountId':
      return deployment.accountId;
    case 'AWS::StackId':
      return deployment.stackId;
    case 'AWS::StackName':
      return deployment.stackId.split('/')[1] as string;
    case 'AWS::URLSuffix':
      return 'amazonaws.com';
    default:
      return deployment.ref(name);
  }
}

/** IAM's pattern match: `*` any run of characters, `?` one; case-sensitive (as for resources). */
export function iamPatternMatches(pattern: string, value: string, caseInsensitive = false): boolean {
  const source = pattern
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, caseInsensitive ? 'is' : 's').test(value);
}

export interface Grant {
  action: string;
  /** The resource pattern, resolved. */
  resource: string;
}

export interface PolicyStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** Each (action, resource) an Allow statement grants, resolved; Deny statements are not supported. */
export function grantsOf(statements: readonly PolicyStatement[], deployment: Deployment): Grant[] {
  return statements.flatMap((statement) => {
    if (statement.Effect !== 'Allow')
      throw new Error(`Only Allow statements are supported, not ${statement.Effect}`);
    const resources = [statement.Resource].flat().map((resource) => resolveValue(resource, deployment));
    return [statement.Action].flat().flatMap((action) => resources.map((resource) => ({ action, resource })));
  });
}

/** Action names are case-insensitive in IAM, resource ARNs are not. */
export function grantCovers(grant: Grant, action: string, resource: string): boolean {
  return iamPatternMatches(grant.action, action, true) && iamPatternMatches(grant.resource, resource);
}
