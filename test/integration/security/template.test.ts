import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerNames, ROUTES } from '../../../lib/http/routeTable';
import {
  removeTestAssemblies,
  SCHEDULED_SPOT_CONFIG,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from '../infra/synthesizeTestStack';
import { resourcesOfType, type TemplateResource } from '../infra/templateQueries';

/**
 * The stack's security invariants, checked on every configuration shape at once. The
 * per-construct details (each function's exact grants, the authorizer's settings) are
 * asserted in test/integration/infra; this suite asserts what must hold everywhere, whatever is added.
 */

/** start, check-status, workflow-task, reconcile, abort and backfills read the spots' upstream keys. */
const SIGNING_IN_FUNCTIONS = 6;

const JWT_AUTH = { mode: 'jwt', issuer: 'https://issuer.example.com/', audience: ['exports-api'] };

const CONFIGURATIONS = {
  'IAM, defaults': { auth: 'AWS_IAM', config: {} },
  'IAM, schedules, alarm emails, own secret prefix': {
    auth: 'AWS_IAM',
    config: { ...SCHEDULED_SPOT_CONFIG, alarmEmail: 'ops@example.com', secretNamePrefix: 'team-a/openweb/' },
  },
  'JWT without scopes': { auth: 'JWT', config: { auth: JWT_AUTH } },
  'JWT with scopes, spot claim, download hosts, schedules and alarms': {
    auth: 'JWT',
    config: {
      ...SCHEDULED_SPOT_CONFIG,
      auth: { ...JWT_AUTH, scopes: ['exports/admin'], spotClaim: 'custom:spots' },
      openWebDownloadHosts: ['*.cdn.example.com'],
      alarmEmail: ['ops@example.com'],
    },
  },
} as const;
type ConfigurationLabel = keyof typeof CONFIGURATIONS;
const LABELS = Object.keys(CONFIGURATIONS) as ConfigurationLabel[];

/**
 * Every resource type the security review has covered. A new type fails this suite until
 * its access and encryption at rest are asserted here.
 */
const REVIEWED_RESOURCE_TYPES = new Set([
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::Authorizer',
  'AWS::ApiGatewayV2::Integration',
  'AWS::ApiGatewayV2::Route',
  'AWS::ApiGatewayV2::Stage',
  // Queries of the archive: results encrypted under the bucket's own prefix, configuration enforced,
  // a scanned-bytes limit (test/integration/infra/ExportsLake.test.ts).
  'AWS::Athena::WorkGroup',
  'AWS::CloudWatch::Alarm',
  'AWS::CloudWatch::Dashboard',
  'AWS::DynamoDB::Table',
  'AWS::Events::EventBus',
  // The catalog of the archive's table and view: names, column types and locations, no data, no access.
  'AWS::Glue::Database',
  'AWS::Glue::Table',
  'AWS::IAM::Policy',
  // The query policy, attached to no principal by the stack: its statements go through the checks below.
  'AWS::IAM::ManagedPolicy',
  'AWS::IAM::Role',
  'AWS::KMS::Key',
  'AWS::Lambda::EventInvokeConfig',
  'AWS::Lambda::Function',
  'AWS::Lambda::Permission',
  'AWS::Logs::LogGroup',
  // Counts ERROR lines of a function's own log group into a metric: no data leaves, no access is granted.
  'AWS::Logs::MetricFilter',
  // The archive: public access blocked, encrypted, TLS-only policy (checked below).
  'AWS::S3::Bucket',
  'AWS::S3::BucketPolicy',
  'AWS::Scheduler::Schedule',
  'AWS::SNS::Subscription',
  'AWS::SNS::Topic',
  'AWS::SNS::TopicPolicy',
  'AWS::SQS::Queue',
  'AWS::SQS::QueuePolicy',
  'AWS::StepFunctions::StateMachine',
]);

/** Environment variable names that would mean a credential is deployed in clear. */
const CREDENTIAL_LIKE_VARIABLE =
  /KEY|TOKEN|PASSWORD|SECRET(?!_NAME_PREFIX$|S_CACHE_MAX_AGE_SECONDS$)|CREDENTIAL/;

interface FoundStatement {
  resourceId: string;
  resourceType: string;
  /** The property holding the policy document, e.g. `KeyPolicy`, `PolicyDocument`. */
  property: string;
  statement: Record<string, unknown>;
}

const stacks = new Map<ConfigurationLabel, SynthesizedTestStack>();

beforeAll(() => {
  for (const label of LABELS) stacks.set(label, synthesizeTestStack(CONFIGURATIONS[label].config));
});

afterAll(() => {
  removeTestAssemblies();
});

function stackFor(label: ConfigurationLabel): SynthesizedTestStack {
  const stack = stacks.get(label);
  if (stack === undefined) throw new Error(`no stack synthesized for ${label}`);
  return stack;
}

function allResources(stack: SynthesizedTestStack): [string, TemplateResource][] {
  return Object.entries(stack.template.toJSON().Resources as Record<string, TemplateResource>);
}

/** Every policy statement anywhere in the template: identity, trust, inline and resource policies alike. */
function allStatements(stack: SynthesizedTestStack): FoundStatement[] {
  const found: FoundStatement[] = [];
  const visit = (node: unknown, resourceId: string, resourceType: string, property: string): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, resourceId, resourceType, property);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record.Statement)) {
      for (const statement of record.Statement as Record<string, unknown>[]) {
        found.push({ resourceId, resourceType, property, statement });
      }
    }
    for (const [key, value] of Object.entries(record)) visit(value, resourceId, resourceType, key);
  };
  for (const [id, resource] of allResources(stack))
    visit(resource.Properties, id, resource.Type, 'Properties');
  return found;
}

function actionsOf(statement: Record<string, unknown>): string[] {
  return [statement.Action ?? []].flat() as string[];
}

function isTlsOnlyGuard(statement: Record<string, unknown>): boolean {
  const condition = JSON.stringify(statement.Condition);
  return (
    statement.Effect === 'Deny' &&
    (condition === JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }) ||
      // The archive bucket also refuses TLS older than 1.2.
      condition === JSON.stringify({ NumericLessThan: { 's3:TlsVersion': 1.2 } }))
  );
}

/** The key policy statement every KMS key needs so the account's IAM policies can govern it. */
function isKeyAdministrationByAccount(found: FoundStatement): boolean {
  const principal = JSON.stringify(found.statement.Principal);
  return (
    found.resourceType === 'AWS::KMS::Key' &&
    found.property === 'KeyPolicy' &&
    found.statement.Effect === 'Allow' &&
    /"AWS":\{"Fn::Join":\["",\["arn:",\{"Ref":"AWS::Partition"\},":iam::",\{"Ref":"AWS::AccountId"\},":root"\]\]\}/.test(
      principal,
    )
  );
}

/**
 * A service publishing to the encrypted alarm topic needs data keys; AWS documents the grant
 * as `kms:GenerateDataKey*` (the GenerateDataKey family), limited here to CloudWatch on one key.
 */
function isAlarmPublisherDataKeyGrant(found: FoundStatement): boolean {
  return (
    found.resourceType === 'AWS::KMS::Key' &&
    found.property === 'KeyPolicy' &&
    found.statement.Effect === 'Allow' &&
    JSON.stringify(found.statement.Principal) === JSON.stringify({ Service: 'cloudwatch.amazonaws.com' }) &&
    actionsOf(found.statement).every(
      (action) => action === 'kms:Decrypt' || action === 'kms:GenerateDataKey*',
    )
  );
}

describe('stack security invariants', () => {
  describe('authorization', () => {
    it.each(LABELS)('authorizes every route and exposes no route outside the route table (%s)', (label) => {
      // Prepare
      const { template } = stackFor(label);
      const expectedType = CONFIGURATIONS[label].auth;

      // Act
      const routes = resourcesOfType(template, 'AWS::ApiGatewayV2::Route').map(
        ([, route]) => route.Properties,
      );
      const apis = resourcesOfType(template, 'AWS::ApiGatewayV2::Api').map(([, api]) => api.Properties);
      const authorizers = resourcesOfType(template, 'AWS::ApiGatewayV2::Authorizer');

      // Assess
      expect(routes.map((route) => route.RouteKey).sort()).toEqual(
        ROUTES.map((route) => `${route.method} ${route.path}`).sort(),
      );
      for (const route of routes) {
        expect(route.AuthorizationType, String(route.RouteKey)).toBe(expectedType);
        if (expectedType === 'JWT') expect(route.AuthorizerId).toEqual({ Ref: authorizers[0]?.[0] });
      }
      // Quick create (Target/RouteKey on the API) would add an unauthorized `$default` route.
      expect(apis).toHaveLength(1);
      expect(apis[0]?.Target).toBeUndefined();
      expect(apis[0]?.RouteKey).toBeUndefined();
      expect(authorizers).toHaveLength(expectedType === 'JWT' ? 1 : 0);
    });

    it.each(LABELS)('lets only this API, not any API Gateway, invoke the functions (%s)', (label) => {
      // Prepare
      const { template } = stackFor(label);
      const [apiId] = resourcesOfType(template, 'AWS::ApiGatewayV2::Api')[0] ?? [];

      // Act
      const permissions = resourcesOfType(template, 'AWS::Lambda::Permission').map(([, permission]) => ({
        principal: permission.Properties.Principal,
        action: permission.Properties.Action,
        sourceArn: JSON.stringify(permission.Properties.SourceArn ?? null),
      }));

      // Assess
      expect(permissions).toHaveLength(ROUTES.length);
      for (const permission of permissions) {
        expect(permission).toMatchObject({
          principal: 'apigateway.amazonaws.com',
          action: 'lambda:InvokeFunction',
        });
        expect(permission.sourceArn).toContain(':execute-api:');
        expect(permission.sourceArn).toContain(`{"Ref":"${apiId}"}`);
        expect(permission.sourceArn).toContain('{"Ref":"AWS::AccountId"}');
      }
    });
  });

  describe('IAM', () => {
    it.each(LABELS)('allows no wildcard action in any policy of any kind (%s)', (label) => {
      // Act
      const statements = allStatements(stackFor(label));

      // Assess
      expect(statements.length).toBeGreaterThan(10);
      for (const found of statements) {
        const where = `${found.resourceId}.${found.property}`;
        // NotAction with Allow grants everything else: a wildcard in disguise.
        expect(found.statement.NotAction, where).toBeUndefined();
        const wildcards = actionsOf(found.statement).filter((action) => action.includes('*'));
        if (wildcards.length === 0) continue;
        if (isKeyAdministrationByAccount(found) || isAlarmPublisherDataKeyGrant(found)) continue;
        // The only other wildcards allowed are in denials: the TLS-only guards of queues.
        expect(isTlsOnlyGuard(found.statement), `${where} ${wildcards.join(', ')}`).toBe(true);
      }
    });

    it.each(LABELS)('reaches secrets only through GetSecretValue on the configured prefix (%s)', (label) => {
      // Prepare
      const config = CONFIGURATIONS[label].config as { secretNamePrefix?: string };
      const prefix = config.secretNamePrefix ?? 'openweb-exports/spots/';

      // Act
      const secretStatements = allStatements(stackFor(label)).filter((found) =>
        actionsOf(found.statement).some((action) => action.toLowerCase().startsWith('secretsmanager:')),
      );
      const templateText = JSON.stringify(stackFor(label).template.toJSON());

      // Assess: one statement for each function that may sign in upstream.
      expect(secretStatements).toHaveLength(SIGNING_IN_FUNCTIONS);
      for (const { statement } of secretStatements) {
        expect(statement.Effect).toBe('Allow');
        expect(actionsOf(statement)).toEqual(['secretsmanager:GetSecretValue']);
        const resources = [statement.Resource].flat().map((resource) => JSON.stringify(resource));
        expect(resources).toEqual([expect.stringMatching(new RegExp(`:secret:${prefix}\\*"\\]\\]\\}$`))]);
      }
      expect(templateText.match(/:secret:/g)).toHaveLength(SIGNING_IN_FUNCTIONS);
      expect(resourcesOfType(stackFor(label).template, 'AWS::SecretsManager::Secret')).toEqual([]);
    });

    it.each(LABELS)('deploys no credential in a function environment (%s)', (label) => {
      // Act
      const variables = resourcesOfType(stackFor(label).template, 'AWS::Lambda::Function').flatMap(([, fn]) =>
        Object.keys((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables),
      );

      // Assess
      expect(variables.length).toBeGreaterThan(0);
      expect(variables.filter((name) => CREDENTIAL_LIKE_VARIABLE.test(name))).toEqual([]);
    });
  });

  describe('data at rest', () => {
    it.each(LABELS)('uses only resource types the security review covered (%s)', (label) => {
      // Act
      const types = new Set(allResources(stackFor(label)).map(([, resource]) => resource.Type));

      // Assess
      expect([...types].filter((type) => !REVIEWED_RESOURCE_TYPES.has(type))).toEqual([]);
    });

    it.each(LABELS)('encrypts the table, the dead-letter queues and the alarm topic (%s)', (label) => {
      // Prepare
      const { template } = stackFor(label);

      // Act
      const tables = resourcesOfType(template, 'AWS::DynamoDB::Table');
      const queues = resourcesOfType(template, 'AWS::SQS::Queue');
      const queuePolicies = resourcesOfType(template, 'AWS::SQS::QueuePolicy');
      const topics = resourcesOfType(template, 'AWS::SNS::Topic');
      const keys = resourcesOfType(template, 'AWS::KMS::Key');

      // Assess
      expect(tables).toHaveLength(1);
      expect(tables[0]?.[1].Properties.SSESpecification).toEqual({ SSEEnabled: true });
      for (const [queueId, queue] of queues) {
        expect(queue.Properties.SqsManagedSseEnabled, queueId).toBe(true);
        const guard = queuePolicies.find(([, policy]) =>
          JSON.stringify(policy.Properties.Queues).includes(`"${queueId}"`),
        )?.[1].Properties.PolicyDocument as { Statement: Record<string, unknown>[] } | undefined;
        expect(guard?.Statement.some(isTlsOnlyGuard), queueId).toBe(true);
      }
      for (const [topicId, topic] of topics) {
        expect(topic.Properties.KmsMasterKeyId, topicId).toEqual({
          'Fn::GetAtt': [expect.any(String), 'Arn'],
        });
      }
      for (const [keyId, key] of keys) expect(key.Properties.EnableKeyRotation, keyId).toBe(true);
    });

    it.each(LABELS)(
      'keeps the archive private, encrypted, versioned, TLS-only and past stack deletion (%s)',
      (label) => {
        // Prepare
        const { template } = stackFor(label);

        // Act
        const buckets = resourcesOfType(template, 'AWS::S3::Bucket');
        const policies = resourcesOfType(template, 'AWS::S3::BucketPolicy');

        // Assess
        expect(buckets).toHaveLength(1);
        const [bucketId, bucket] = buckets[0] as (typeof buckets)[number];
        expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        });
        expect(bucket.Properties.BucketEncryption).toEqual({
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        });
        expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
        expect((bucket as unknown as { DeletionPolicy: string }).DeletionPolicy).toBe('Retain');
        expect(policies).toHaveLength(1);
        const [, policy] = policies[0] as (typeof policies)[number];
        const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] })
          .Statement;
        expect(JSON.stringify(policy.Properties.Bucket)).toContain(bucketId);
        expect(statements.length).toBeGreaterThan(0);
        expect(statements.every(isTlsOnlyGuard)).toBe(true);
      },
    );

    it.each(LABELS)(
      'keeps the logs free of request data: no execution data, no headers, no claims (%s)',
      (label) => {
        // Prepare
        const { template } = stackFor(label);

        // Act
        const machines = resourcesOfType(template, 'AWS::StepFunctions::StateMachine');
        const stages = resourcesOfType(template, 'AWS::ApiGatewayV2::Stage');
        const logGroups = resourcesOfType(template, 'AWS::Logs::LogGroup');

        // Assess
        // Task outputs carry download links, which are bearer URLs; the erasure's name the user.
        expect(machines).toHaveLength(2);
        for (const [machineId, machine] of machines) {
          expect(machine.Properties.LoggingConfiguration, machineId).toMatchObject({
            IncludeExecutionData: false,
          });
        }
        const accessLogs = stages[0]?.[1].Properties.AccessLogSettings as { Format: string } | undefined;
        const format = accessLogs?.Format;
        expect(format).toContain('$context.requestId');
        expect(format).not.toMatch(/\$request\.|header|authorization|claims|querystring/i);
        // Encrypted at rest by CloudWatch Logs itself (docs/security.md explains the choice);
        // what must hold is that every group has a retention, so nothing is kept forever.
        // One per function, one per state machine (exports, erasures) and the API's access log.
        expect(logGroups).toHaveLength(Object.keys(HandlerNames).length + machines.length + 1);
        for (const [groupId, group] of logGroups) {
          expect(group.Properties.RetentionInDays, groupId).toEqual(expect.any(Number));
        }
      },
    );
  });
});
