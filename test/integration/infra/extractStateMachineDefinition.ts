import type { Template } from 'aws-cdk-lib/assertions';
import {
  type CloudFormationTemplate,
  type ExtractedStateMachine,
  stateMachineDefinitionFromTemplate,
} from '../../../infra/extractStateMachine';

/**
 * The polling state machine of a synthesized stack as plain ASL, with placeholder ARNs, and
 * which handler each task's placeholder function ARN stands for. Thin over the infra module
 * the local runtime uses, so tests check the very definition that runs locally.
 */
export function extractStateMachineDefinition(
  template: Template | CloudFormationTemplate,
): ExtractedStateMachine {
  const json = 'toJSON' in template ? (template.toJSON() as CloudFormationTemplate) : template;
  return stateMachineDefinitionFromTemplate(json);
}
