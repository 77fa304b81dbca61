import type { HandlerName } from '../lib/http/routeTable';

/**
 * CloudFormation metadata key naming the handler a function runs, so a tool reading the
 * synthesized template (the local workflow runner) maps a task's function to its handler.
 */
export const HANDLER_METADATA_KEY = 'OpenWebExports::Handler';
/**
 * CloudFormation metadata key naming which workflow a state machine runs, so the local runtime
 * picks each from a template that holds both.
 */
export const WORKFLOW_METADATA_KEY = 'OpenWebExports::Workflow';

/** The stack's workflows. */
export type WorkflowKind = 'polling' | 'erasure';

/** The parts of a synthesized CloudFormation template this module reads. */
export interface CloudFormationTemplate {
  Resources: Record<string, CloudFormationResource>;
}

export interface CloudFormationResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

/** A plain Amazon States Language document. */
export type StateMachineDefinition = Record<string, unknown> & {
  StartAt: string;
  States: Record<string, unknown>;
};

/** Stand-ins for what only a deployment knows. */
export const PLACEHOLDER_PARTITION = 'aws';
export const PLACEHOLDER_REGION = 'us-east-1';
export const PLACEHOLDER_ACCOUNT_ID = '123456789012';

const PSEUDO_PARAMETERS: Record<string, string> = {
  'AWS::Partition': PLACEHOLDER_PARTITION,
  'AWS::Region': PLACEHOLDER_REGION,
  'AWS::AccountId': PLACEHOLDER_ACCOUNT_ID,
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'OpenWebExports',
};

export interface ExtractedStateMachine {
  /** Logical id of the AWS::StepFunctions::StateMachine resource. */
  logicalId: string;
  definition: StateMachineDefinition;
  /** Placeholder ARN used in the definition for each Lambda function → the handler it runs. */
  taskHandlers: Record<string, HandlerName>;
}

/**
 * Placeholder ARN of a resource, in the ARN shape of its type, named by its logical id,
 * so the same template always yields the same definition.
 */
export function placeholderArn(template: CloudFormationTemplate, logicalId: string): string {
  const type = template.Resources[logicalId]?.Type;
  const prefix = `arn:${PLACEHOLDER_PARTITION}`;
  switch (type) {
    case 'AWS::Lambda::Function':
      return `${prefix}:lambda:${PLACEHOLDER_REGION}:${PLACEHOLDER_ACCOUNT_ID}:function:${logicalId}`;
    case 'AWS::StepFunctions::StateMachine':
      return `${prefix}:states:${PLACEHOLDER_REGION}:${PLACEHOLDER_ACCOUNT_ID}:stateMachine:${logicalId}`;
    case 'AWS::SQS::Queue':
      return `${prefix}:sqs:${PLACEHOLDER_REGION}:${PLACEHOLDER_ACCOUNT_ID}:${logicalId}`;
    case 'AWS::DynamoDB::Table':
      return `${prefix}:dynamodb:${PLACEHOLDER_REGION}:${PLACEHOLDER_ACCOUNT_ID}:table/${logicalId}`;
    case 'AWS::Events::EventBus':
      return `${prefix}:events:${PLACEHOLDER_REGION}:${PLACEHOLDER_ACCOUNT_ID}:event-bus/${logicalId}`;
    default: {
      const service = type?.split('::')[1]?.toLowerCase() ?? 'unknown';
      return `${prefix}:${service}:${PLACEHOLDER_REGION}:${PLACEHOLDER_ACCOUNT_ID}:${logicalId}`;
    }
  }
}

/** A CloudFormation value (string or intrinsic function) → the string it stands for, with placeholders. */
export function resolveTemplateString(template: CloudFormationTemplate, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value !== null && typeof value === 'object') {
    const intrinsic = value as Record<string, unknown>;
    if ('Fn::Join' in intrinsic) {
      const [delimiter, parts] = intrinsic['Fn::Join'] as [string, unknown[]];
      return parts.map((part) => resolveTemplateString(template, part)).join(delimiter);
    }
    if ('Ref' in intrinsic) {
      const name = String(intrinsic.Ref);
      return PSEUDO_PARAMETERS[name] ?? placeholderArn(template, name);
    }
    if ('Fn::GetAtt' in intrinsic) {
      const [logicalId] = intrinsic['Fn::GetAtt'] as [string, string];
      return placeholderArn(template, logicalId);
    }
  }
  throw new Error(`Cannot resolve ${JSON.stringify(value)} in a state machine definition`);
}

function substitute(
  definitionText: string,
  template: CloudFormationTemplate,
  substitutions: unknown,
): string {
  if (substitutions === undefined || substitutions === null) return definitionText;
  return Object.entries(substitutions as Record<string, unknown>).reduce(
    (text, [name, value]) => text.replaceAll(`\${${name}}`, resolveTemplateString(template, value)),
    definitionText,
  );
}

/**
 * The state machine of a synthesized template as plain ASL: the `DefinitionString`'s
 * `Fn::Join` parts joined, `Ref`/`Fn::GetAtt` tokens replaced by placeholder ARNs,
 * `DefinitionSubstitutions` applied. Works on the template alone, so the local runtime can
 * run exactly what the stack deploys. `selector` picks one when the template holds several: a
 * logical id, or a workflow by its metadata; by default the polling workflow (a state machine
 * that names no workflow counts as it).
 */
export function stateMachineDefinitionFromTemplate(
  template: CloudFormationTemplate,
  selector: string | { workflow: WorkflowKind } = { workflow: 'polling' },
): ExtractedStateMachine {
  const matches = (id: string, resource: CloudFormationResource): boolean => {
    if (typeof selector === 'string') return id === selector;
    const workflow = resource.Metadata?.[WORKFLOW_METADATA_KEY] ?? 'polling';
    return workflow === selector.workflow;
  };
  const candidates = Object.entries(template.Resources).filter(
    ([id, resource]) => resource.Type === 'AWS::StepFunctions::StateMachine' && matches(id, resource),
  );
  if (candidates.length !== 1) {
    const named =
      typeof selector === 'string' ? ` named ${selector}` : ` of the ${selector.workflow} workflow`;
    throw new Error(`Expected one state machine${named} in the template, found ${candidates.length}`);
  }
  const [id, resource] = candidates[0] as [string, CloudFormationResource];
  const properties = resource.Properties ?? {};
  const text = substitute(
    resolveTemplateString(template, properties.DefinitionString),
    template,
    properties.DefinitionSubstitutions,
  );

  const taskHandlers: Record<string, HandlerName> = {};
  for (const [resourceId, candidate] of Object.entries(template.Resources)) {
    const handler = candidate.Metadata?.[HANDLER_METADATA_KEY];
    if (candidate.Type === 'AWS::Lambda::Function' && typeof handler === 'string') {
      taskHandlers[placeholderArn(template, resourceId)] = handler as HandlerName;
    }
  }
  return { logicalId: id, definition: JSON.parse(text) as StateMachineDefinition, taskHandlers };
}
