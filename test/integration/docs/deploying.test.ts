import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CloudFormationTemplate } from '../../../infra/extractStateMachine';
import { synthesizeStackTemplate } from '../../../infra/synthesizeStackTemplate';
import { LOCAL_PROJECT_ROOT } from '../../../local/projectRoot';
import { SCHEDULED_SPOT_CONFIG } from '../infra/synthesizeTestStack';

const SYNTH_TIMEOUT_MS = 120_000;
const ALARM_TYPE = 'AWS::CloudWatch::Alarm';
/** The IAM prefix of each service whose resources the template holds. */
const IAM_PREFIXES: Record<string, string> = {
  ApiGatewayV2: 'apigateway',
  Athena: 'athena',
  CloudWatch: 'cloudwatch',
  DynamoDB: 'dynamodb',
  Events: 'events',
  Glue: 'glue',
  IAM: 'iam',
  KMS: 'kms',
  Lambda: 'lambda',
  Logs: 'logs',
  S3: 's3',
  SNS: 'sns',
  SQS: 'sqs',
  Scheduler: 'scheduler',
  StepFunctions: 'states',
};

const deploying = () => readFileSync(join(LOCAL_PROJECT_ROOT, 'docs', 'deploying.md'), 'utf8');

function resourceTypes(template: CloudFormationTemplate): string[] {
  return Object.values(template.Resources).map((resource) => (resource as { Type: string }).Type);
}

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`docs/deploying.md has no "## ${heading}" section`);
  const rest = markdown.slice(start + heading.length + 3);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

describe('docs/deploying.md against the synthesized template', () => {
  let defaults: string[];
  let everything: string[];

  beforeAll(() => {
    defaults = resourceTypes(synthesizeStackTemplate({}));
    // Every optional resource: export schedules (their dead-letter queue and alarm), the alarm topic.
    everything = resourceTypes(
      synthesizeStackTemplate({ ...SCHEDULED_SPOT_CONFIG, alarmEmail: 'ops@example.com' }),
    );
  }, SYNTH_TIMEOUT_MS);

  it(
    'counts the alarms the template has, with and without export schedules',
    () => {
      // Prepare
      const scheduled = resourceTypes(synthesizeStackTemplate(SCHEDULED_SPOT_CONFIG));

      // Act
      const counted = /alarm-month: (\d+), (\d+) with export schedules/.exec(
        deploying().replace(/\s+/g, ' '),
      );

      // Assess
      expect(counted, 'the alarms’ count in the Costs section').not.toBeNull();
      const [, withoutSchedules, withSchedules] = counted as RegExpExecArray;
      expect(Number(withoutSchedules)).toBe(defaults.filter((type) => type === ALARM_TYPE).length);
      expect(Number(withSchedules)).toBe(scheduled.filter((type) => type === ALARM_TYPE).length);
    },
    SYNTH_TIMEOUT_MS,
  );

  it('lists, in the permissions to deploy, every resource type the template creates and no other', () => {
    // Act
    const permissions = section(deploying(), 'Permissions to deploy');
    const listed = new Set(permissions.match(/AWS::\w+::\w+/g) ?? []);

    // Assess
    expect([...listed].sort()).toEqual([...new Set(everything)].sort());
  });

  it("names each listed service's IAM actions on the row of its resource types", () => {
    // Prepare
    const rows = section(deploying(), 'Permissions to deploy')
      .split('\n')
      .filter((line) => /^\| .*AWS::/.test(line));

    // Assess
    for (const type of new Set(everything)) {
      const service = type.split('::')[1] as string;
      const row = rows.find((line) => line.includes(`\`${type}\``));
      expect(row, type).toBeDefined();
      expect(row, type).toContain(`\`${IAM_PREFIXES[service] ?? `(no IAM prefix known for ${service})`}:`);
    }
  });
});
