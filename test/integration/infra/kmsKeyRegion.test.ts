import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenWebExports, type OpenWebExportsProps } from '../../../infra/OpenWebExports';
import { cdkJsonContext } from '../../../infra/openWebExportsApp';
import { StackConfigError } from '../../../infra/stackConfig';
import { SKIP_BUNDLING_CONTEXT } from '../../../infra/synthesizeStackTemplate';
import { HandlerNames } from '../../../lib/http/routeTable';
import { newAssemblyDirectory, removeTestAssemblies } from './synthesizeTestStack';
import { type PolicyStatementJson, statementsOfFunction } from './templateQueries';

const ACCOUNT = '123456789012';
const KEY_IN = (region: string) =>
  `arn:aws:kms:${region}:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;

afterAll(() => {
  removeTestAssemblies();
});

/** The construct alone in a stack pinned to `region`, or environment-agnostic. */
function synthesize(props: OpenWebExportsProps, region?: string): Template {
  const app = new App({
    context: { ...cdkJsonContext(), ...SKIP_BUNDLING_CONTEXT },
    outdir: newAssemblyDirectory(),
  });
  const stack = new Stack(app, 'Exports', region === undefined ? {} : { env: { account: ACCOUNT, region } });
  new OpenWebExports(stack, 'Default', { namePrefix: 'openweb', ...props });
  return Template.fromStack(stack);
}

/** The template's rules but CDK's own bootstrap version check. */
function keyRules(template: Template): unknown[] {
  const rules = (template.toJSON().Rules ?? {}) as Record<string, unknown>;
  return Object.entries(rules)
    .filter(([id]) => id !== 'CheckBootstrapVersion')
    .map(([, rule]) => rule);
}

function kmsStatements(statements: readonly PolicyStatementJson[]): PolicyStatementJson[] {
  return statements.filter((statement) =>
    [statement.Action].flat().some((action) => action.startsWith('kms:')),
  );
}

describe('a KMS key from another region', () => {
  it.each([
    ['archive.kmsKeyArn', { archive: { kmsKeyArn: KEY_IN('us-east-1') } }],
    ['secretsKmsKeyArn', { secretsKmsKeyArn: KEY_IN('us-east-1') }],
  ])('is refused at synthesis when the stack names its region (%s)', (setting, props) => {
    // Act
    const synth = () => synthesize(props, 'eu-west-1');

    // Assess
    expect(synth).toThrow(StackConfigError);
    expect(synth).toThrow(
      new RegExp(`${setting.replace('.', '\\.')}: the key is in us-east-1, the stack in eu-west-1`),
    );
  });

  it('is refused by a template rule when the region is known only at deployment', () => {
    // Act
    const template = synthesize({ archive: { kmsKeyArn: KEY_IN('us-east-1') } });

    // Assess
    const rules = keyRules(template);
    expect(rules).toEqual([
      {
        Assertions: [
          {
            Assert: { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] },
            AssertDescription: expect.stringContaining('archive.kmsKeyArn names a KMS key in us-east-1'),
          },
        ],
      },
    ]);
  });

  it('is not in the way of a key of the stack’s own region', () => {
    // Act
    const template = synthesize(
      { archive: { kmsKeyArn: KEY_IN('eu-west-1') }, secretsKmsKeyArn: KEY_IN('eu-west-1') },
      'eu-west-1',
    );

    // Assess
    expect(keyRules(template)).toEqual([]);
  });
});

describe('the spots’ secrets encrypted with a customer-managed key', () => {
  const SECRET_READERS = [
    HandlerNames.START,
    HandlerNames.CHECK_STATUS,
    HandlerNames.ABORT,
    HandlerNames.WORKFLOW_TASK,
    HandlerNames.RECONCILE,
  ];

  it('may be decrypted by the functions that read secrets, only through Secrets Manager', () => {
    // Act
    const template = synthesize({ secretsKmsKeyArn: KEY_IN('eu-west-1') }, 'eu-west-1');

    // Assess
    for (const handler of SECRET_READERS) {
      expect(kmsStatements(statementsOfFunction(template, handler)), handler).toEqual([
        {
          Effect: 'Allow',
          Action: 'kms:Decrypt',
          Resource: KEY_IN('eu-west-1'),
          Condition: {
            StringEquals: {
              'kms:ViaService': {
                'Fn::Join': ['', ['secretsmanager.eu-west-1.', { Ref: 'AWS::URLSuffix' }]],
              },
            },
          },
        },
      ]);
    }
    for (const handler of [HandlerNames.LIST, HandlerNames.FILES, HandlerNames.ARCHIVE]) {
      expect(kmsStatements(statementsOfFunction(template, handler)), handler).toEqual([]);
    }
  });

  it('gives no function a KMS grant when the secrets use the AWS-managed key', () => {
    // Act
    const template = synthesize({}, 'eu-west-1');

    // Assess
    for (const handler of Object.values(HandlerNames)) {
      expect(kmsStatements(statementsOfFunction(template, handler)), handler).toEqual([]);
    }
  });
});
