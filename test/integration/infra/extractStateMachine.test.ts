import { describe, expect, it } from 'vitest';
import {
  type CloudFormationTemplate,
  HANDLER_METADATA_KEY,
  PLACEHOLDER_ACCOUNT_ID,
  stateMachineDefinitionFromTemplate,
  WORKFLOW_METADATA_KEY,
} from '../../../infra/extractStateMachine';

function templateWith(resources: CloudFormationTemplate['Resources']): CloudFormationTemplate {
  return { Resources: resources };
}

const pollFunction = {
  Type: 'AWS::Lambda::Function',
  Metadata: { [HANDLER_METADATA_KEY]: 'check-status' },
};

describe('stateMachineDefinitionFromTemplate', () => {
  it('joins the definition parts and replaces function references with placeholder ARNs', () => {
    // Prepare
    const template = templateWith({
      PollFn: pollFunction,
      Machine: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: {
          DefinitionString: {
            'Fn::Join': [
              '',
              [
                '{"StartAt":"Poll","States":{"Poll":{"Type":"Task","Resource":"',
                { 'Fn::GetAtt': ['PollFn', 'Arn'] },
                '","Next":"Log"},"Log":{"Type":"Pass","Result":"arn:',
                { Ref: 'AWS::Partition' },
                ':',
                { Ref: 'AWS::AccountId' },
                '","End":true}}}',
              ],
            ],
          },
        },
      },
    });

    // Act
    const extracted = stateMachineDefinitionFromTemplate(template);

    // Assess
    const states = extracted.definition.States as Record<string, Record<string, unknown>>;
    expect(extracted.logicalId).toBe('Machine');
    expect(states.Poll?.Resource).toBe(`arn:aws:lambda:us-east-1:${PLACEHOLDER_ACCOUNT_ID}:function:PollFn`);
    expect(states.Log?.Result).toBe(`arn:aws:${PLACEHOLDER_ACCOUNT_ID}`);
    expect(extracted.taskHandlers).toEqual({ [states.Poll?.Resource as string]: 'check-status' });
  });

  it('applies DefinitionSubstitutions', () => {
    // Prepare
    const template = templateWith({
      PollFn: pollFunction,
      Machine: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: {
          DefinitionString:
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a DefinitionSubstitutions placeholder, not a JS template
            '{"StartAt":"Poll","States":{"Poll":{"Type":"Task","Resource":"${pollArn}","End":true}}}',
          DefinitionSubstitutions: { pollArn: { 'Fn::GetAtt': ['PollFn', 'Arn'] } },
        },
      },
    });

    // Act
    const { definition } = stateMachineDefinitionFromTemplate(template);

    // Assess
    expect(JSON.stringify(definition)).toContain(':function:PollFn"');
    expect(JSON.stringify(definition)).not.toContain('${');
  });

  it('refuses a template without exactly one state machine unless one is named', () => {
    // Prepare
    const machine = {
      Type: 'AWS::StepFunctions::StateMachine',
      Properties: { DefinitionString: '{"StartAt":"Done","States":{"Done":{"Type":"Succeed"}}}' },
    };
    const template = templateWith({ First: machine, Second: machine });

    // Act
    const extractAny = () => stateMachineDefinitionFromTemplate(template);
    const named = stateMachineDefinitionFromTemplate(template, 'Second');

    // Assess
    expect(extractAny).toThrow('Expected one state machine of the polling workflow in the template, found 2');
    expect(named.logicalId).toBe('Second');
    expect(() => stateMachineDefinitionFromTemplate(templateWith({}))).toThrow('found 0');
  });

  it('picks a workflow by the metadata its state machine carries, the polling one by default', () => {
    // Prepare
    const machine = {
      Type: 'AWS::StepFunctions::StateMachine',
      Properties: { DefinitionString: '{"StartAt":"Done","States":{"Done":{"Type":"Succeed"}}}' },
    };
    const template = templateWith({
      Polling: { ...machine, Metadata: { [WORKFLOW_METADATA_KEY]: 'polling' } },
      Erasure: { ...machine, Metadata: { [WORKFLOW_METADATA_KEY]: 'erasure' } },
    });

    // Act
    const polling = stateMachineDefinitionFromTemplate(template);
    const erasure = stateMachineDefinitionFromTemplate(template, { workflow: 'erasure' });

    // Assess
    expect(polling.logicalId).toBe('Polling');
    expect(erasure.logicalId).toBe('Erasure');
  });

  it('refuses an intrinsic function it cannot resolve instead of producing a broken definition', () => {
    // Prepare
    const template = templateWith({
      Machine: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: {
          DefinitionString: { 'Fn::Join': ['', ['{"StartAt":"', { 'Fn::ImportValue': 'x' }, '"}']] },
        },
      },
    });

    // Act
    const extract = () => stateMachineDefinitionFromTemplate(template);

    // Assess
    expect(extract).toThrow(/Cannot resolve .*Fn::ImportValue/);
  });
});
