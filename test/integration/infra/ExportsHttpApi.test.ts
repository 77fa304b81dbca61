import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  removeTestAssemblies,
  STACK_SHAPES,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from './synthesizeTestStack';
import { resourcesOfType, type TemplateResource } from './templateQueries';

afterAll(() => {
  removeTestAssemblies();
});

describe.each(STACK_SHAPES)('the HTTP API access log (%s)', (shape) => {
  let stack: SynthesizedTestStack;

  beforeAll(() => {
    stack = synthesizeTestStack({}, shape);
  });

  it('goes to a group under /aws/vendedlogs/, named anew for every stack instance', () => {
    // Prepare
    const [, stage] = resourcesOfType(stack.template, 'AWS::ApiGatewayV2::Stage')[0] as [
      string,
      TemplateResource,
    ];
    const destination = (stage.Properties.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': [string] } })
      .DestinationArn;

    // Act
    const group = stack.template.toJSON().Resources[destination['Fn::GetAtt'][0]];

    // Assess: the vended-logs prefix keeps CloudWatch Logs' account-wide resource policy small;
    // the stack id's UUID lets a retained group of a deleted stack coexist with the new one.
    expect(group.Properties.LogGroupName).toEqual({
      'Fn::Join': [
        '',
        [
          `/aws/vendedlogs/apigateway/${stack.namePrefix}-access-`,
          { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] },
        ],
      ],
    });
    expect(group.DeletionPolicy).toBe('Retain');
  });
});
