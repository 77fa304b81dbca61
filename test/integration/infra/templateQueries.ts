import type { Template } from 'aws-cdk-lib/assertions';
import { HANDLER_METADATA_KEY } from '../../../infra/extractStateMachine';
import type { HandlerName } from '../../../lib/http/routeTable';

export interface TemplateResource {
  Type: string;
  Properties: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

export interface PolicyStatementJson {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

export function resourcesOfType(template: Template, type: string): [string, TemplateResource][] {
  return Object.entries(template.findResources(type) as Record<string, TemplateResource>);
}

/** The one Lambda function running `handler` (found by the handler metadata the stack writes). */
export function functionOf(template: Template, handler: HandlerName): [string, TemplateResource] {
  const matches = resourcesOfType(template, 'AWS::Lambda::Function').filter(
    ([, resource]) => resource.Metadata?.[HANDLER_METADATA_KEY] === handler,
  );
  if (matches.length !== 1) throw new Error(`expected one function for ${handler}, found ${matches.length}`);
  return matches[0] as [string, TemplateResource];
}

/** Every statement of every IAM policy attached to the role `roleLogicalId`. */
export function statementsOfRole(template: Template, roleLogicalId: string): PolicyStatementJson[] {
  return resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, policy]) =>
      (policy.Properties.Roles as unknown[]).some(
        (role) => JSON.stringify(role) === JSON.stringify({ Ref: roleLogicalId }),
      ),
    )
    .flatMap(
      ([, policy]) => (policy.Properties.PolicyDocument as { Statement: PolicyStatementJson[] }).Statement,
    );
}

export function statementsOfFunction(template: Template, handler: HandlerName): PolicyStatementJson[] {
  const [, fn] = functionOf(template, handler);
  const roleLogicalId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return statementsOfRole(template, roleLogicalId);
}

export function actionsOf(statements: readonly PolicyStatementJson[]): string[] {
  return [...new Set(statements.flatMap((statement) => [statement.Action].flat()))].sort();
}

/** The statements granting `action`, with their resources as JSON text (for matching ARN fragments). */
export function resourcesGranting(statements: readonly PolicyStatementJson[], action: string): string[] {
  return statements
    .filter((statement) => [statement.Action].flat().includes(action))
    .flatMap((statement) => [statement.Resource].flat().map((resource) => JSON.stringify(resource)));
}
