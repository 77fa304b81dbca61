import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenWebExportsStack } from '../../../infra/OpenWebExportsStack';
import { cdkJsonContext } from '../../../infra/openWebExportsApp';
import { parseStackConfig } from '../../../infra/stackConfig';
import { SKIP_BUNDLING_CONTEXT } from '../../../infra/synthesizeStackTemplate';
import { type HandlerName, HandlerNames, ROUTES } from '../../../lib/http/routeTable';
import { exportTableDefinition } from '../../../lib/store/tableDefinition';
import {
  EMBEDDED,
  newAssemblyDirectory,
  removeTestAssemblies,
  SCHEDULED_SPOT_CONFIG,
  STACK_SHAPES,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from './synthesizeTestStack';
import {
  functionOf,
  resourcesGranting,
  resourcesOfType,
  statementsOfFunction,
  type TemplateResource,
} from './templateQueries';

const ALL_HANDLERS = Object.values(HandlerNames);
/** The functions of the upstream's workflow and API; the archive, files and erasure task functions read only the archive's settings. */
const ARCHIVE_HANDLERS = [HandlerNames.FILES, HandlerNames.ARCHIVE, HandlerNames.ERASURE_TASK] as const;
const EXPORT_HANDLERS = ALL_HANDLERS.filter(
  (handler) => !(ARCHIVE_HANDLERS as readonly string[]).includes(handler),
);
const COMMON_ENVIRONMENT = [
  'TABLE_NAME',
  'SECRET_NAME_PREFIX',
  'SECRETS_CACHE_MAX_AGE_SECONDS',
  'OPENWEB_AUTH_BASE_URL',
  'OPENWEB_EXPORT_BASE_URL',
  'POWERTOOLS_SERVICE_NAME',
  'POWERTOOLS_LOG_LEVEL',
  'POWERTOOLS_METRICS_NAMESPACE',
  'EXPORT_DEADLINE_SECONDS',
  'DEFAULT_FIRST_POLL_DELAY_SECONDS',
  'STATUS_FRESHNESS_SECONDS',
  'RECONCILE_STALE_AFTER_SECONDS',
  'STATE_MACHINE_ARN',
  'EVENT_BUS_NAME',
];

function environmentOf(stack: SynthesizedTestStack, handler: HandlerName): Record<string, unknown> {
  const [, fn] = functionOf(stack.template, handler);
  return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

function logicalIdOfGetAtt(value: unknown): string {
  return (value as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
}

afterAll(() => {
  removeTestAssemblies();
});

// The same assertions hold for the stack as deployed and for the construct inside someone else's stack.
describe.each(STACK_SHAPES)('OpenWebExports (%s)', (shape) => {
  let plain: SynthesizedTestStack;
  let scheduled: SynthesizedTestStack;
  let jwt: SynthesizedTestStack;

  beforeAll(() => {
    plain = synthesizeTestStack({}, shape);
    scheduled = synthesizeTestStack(
      {
        ...SCHEDULED_SPOT_CONFIG,
        alarmEmail: ['ops@example.com', 'oncall@example.com'],
      },
      shape,
    );
    jwt = synthesizeTestStack(
      {
        auth: {
          mode: 'jwt',
          issuer: 'https://issuer.example.com/',
          audience: ['exports-api'],
          scopes: ['exports/admin'],
        },
        polling: {
          exportDeadlineSeconds: 7_200,
          defaultFirstPollDelaySeconds: 45,
          statusFreshnessSeconds: 20,
        },
        secretNamePrefix: 'custom/openweb/',
        logLevel: 'DEBUG',
        sourceMapStackTraces: true,
      },
      shape,
    );
  });

  describe('placement', () => {
    it('names its resources after the stack as deployed, after the stack and the construct id embedded', () => {
      // Act
      const names = {
        stateMachine: resourcesOfType(plain.template, 'AWS::StepFunctions::StateMachine')[0]?.[1].Properties
          .StateMachineName,
        bus: resourcesOfType(plain.template, 'AWS::Events::EventBus')[0]?.[1].Properties.Name,
        dashboard: resourcesOfType(plain.template, 'AWS::CloudWatch::Dashboard')[0]?.[1].Properties
          .DashboardName,
      };

      // Assess
      const prefix =
        shape === 'deployed' ? 'OpenWebExports' : `${EMBEDDED.stackName}-${EMBEDDED.constructId}`;
      expect(plain.namePrefix).toBe(prefix);
      expect(names).toEqual({
        // The stack instance's part: a deploy after a destroy must not meet the old one still DELETING.
        stateMachine: { 'Fn::Join': ['', [`${prefix}-ExportPolling-`, expect.anything()]] },
        bus: `${prefix}-exports`,
        dashboard: { 'Fn::Join': ['', [`${prefix}-`, { Ref: 'AWS::Region' }]] },
      });
    });

    it('names its Glue database after itself, the name the archive function registers in', () => {
      // Act
      const [, database] = resourcesOfType(plain.template, 'AWS::Glue::Database')[0] ?? [];

      // Assess
      const name = shape === 'deployed' ? 'openwebexports' : 'data_platform_exports';
      expect(database?.Properties.DatabaseInput).toMatchObject({ Name: name });
      expect(plain.exports.config.archive.catalogDatabaseName).toBe(name);
      expect(environmentOf(plain, HandlerNames.ARCHIVE).LAKE_DATABASE_NAME).toBe(name);
    });

    it("lets the archive function repair its database's partitions from the bucket, so the table sees every file without the archive's registration", () => {
      // Act
      const statements = statementsOfFunction(plain.template, HandlerNames.ARCHIVE);
      const name = plain.exports.config.archive.catalogDatabaseName;
      const listing = statements.filter((statement) => [statement.Action].flat().includes('s3:ListBucket'));

      // Assess: what the catalog holds and the missing ones added, in this stack's database only.
      for (const action of ['glue:GetPartitions', 'glue:BatchCreatePartition']) {
        const resources = resourcesGranting(statements, action).join(' ');
        expect(resources).toContain(`:database/${name}`);
        expect(resources).toContain(`:table/${name}/comment_rows`);
      }
      // The stored partitions, listed under the table's prefix of the archive bucket only.
      expect(listing).toEqual([
        expect.objectContaining({ Condition: { StringLike: { 's3:prefix': ['tables/comments/*'] } } }),
      ]);
    });

    it('gives the erasure task alone the workgroup and the grants of its table check: Athena in that workgroup only', () => {
      // Prepare
      const workGroup = plain.exports.lake.workGroupName;
      const database = plain.exports.config.archive.catalogDatabaseName;
      const athenaActions = [
        'athena:StartQueryExecution',
        'athena:GetQueryExecution',
        'athena:GetQueryResults',
        'athena:StopQueryExecution',
      ];

      // Act
      const statements = statementsOfFunction(plain.template, HandlerNames.ERASURE_TASK);

      // Assess
      expect(environmentOf(plain, HandlerNames.ERASURE_TASK).LAKE_WORK_GROUP_NAME).toBe(workGroup);
      for (const action of athenaActions) {
        const resources = resourcesGranting(statements, action);
        expect(resources, action).toHaveLength(1);
        expect(resources[0], action).toContain(`:workgroup/${workGroup}`);
      }
      expect(resourcesGranting(statements, 'glue:GetDatabase').join(' ')).toContain(`:database/${database}`);
      for (const action of ['glue:GetTable', 'glue:GetPartitions']) {
        const resources = resourcesGranting(statements, action).join(' ');
        expect(resources, action).toContain(`:database/${database}`);
        expect(resources, action).toContain(`:table/${database}/comment_rows`);
        expect(resources, action).not.toContain(`:table/${database}/comments"`);
      }
      expect(resourcesGranting(statements, 's3:PutObject').join(' ')).toContain('athena-results/*');
      for (const handler of ALL_HANDLERS.filter((name) => name !== HandlerNames.ERASURE_TASK)) {
        expect(Object.keys(environmentOf(plain, handler)), handler).not.toContain('LAKE_WORK_GROUP_NAME');
        const others = statementsOfFunction(plain.template, handler);
        for (const action of athenaActions) expect(resourcesGranting(others, action), handler).toEqual([]);
      }
    });

    it('keeps the logical ids the stack had before it held the construct, and its outputs', () => {
      // Act
      const tableIds = Object.keys(plain.template.findResources('AWS::DynamoDB::Table'));
      const outputs = Object.keys((plain.template.toJSON().Outputs ?? {}) as Record<string, unknown>);

      // Assess
      if (shape === 'deployed') {
        expect(tableIds).toEqual([expect.stringMatching(/^ExportTable[0-9A-F]{8}$/)]);
        expect(outputs.sort()).toEqual([
          'ApiUrl',
          'ArchiveBucketName',
          'AthenaWorkGroupName',
          'DashboardName',
          'EventBusName',
          'LakeDatabaseName',
          'LakeQueryPolicyArn',
          'StateMachineArn',
          'TableName',
        ]);
      } else {
        // Embedded, the ids are under the construct's and the outputs are the embedding app's to choose.
        expect(tableIds).toEqual([expect.stringMatching(/^ExportsExportTable[0-9A-F]{8}$/)]);
        expect(outputs).toEqual([]);
      }
    });

    it('carries the permissions boundary and the tags of the stack it is placed in', () => {
      // Act
      const roles = resourcesOfType(scheduled.template, 'AWS::IAM::Role');
      const tagged = [
        ...resourcesOfType(scheduled.template, 'AWS::DynamoDB::Table'),
        ...resourcesOfType(scheduled.template, 'AWS::Lambda::Function'),
      ];

      // Assess
      expect(roles.length).toBeGreaterThan(4);
      for (const [, role] of roles) {
        const boundary = JSON.stringify(role.Properties.PermissionsBoundary);
        if (shape === 'embedded') expect(boundary).toContain(`:policy/${EMBEDDED.boundaryPolicyName}`);
        else expect(boundary).toBeUndefined();
      }
      const userTags = Object.entries(EMBEDDED.tags).map(([Key, Value]) => ({ Key, Value }));
      for (const [, resource] of tagged) {
        if (shape === 'embedded') expect(resource.Properties.Tags).toEqual(expect.arrayContaining(userTags));
        else expect(resource.Properties.Tags ?? []).not.toEqual(expect.arrayContaining(userTags));
      }
    });
  });

  describe('export table', () => {
    it('is built from the shared table definition', () => {
      // Prepare
      const definition = exportTableDefinition;

      // Act
      const tables = resourcesOfType(plain.template, 'AWS::DynamoDB::Table');

      // Assess
      expect(tables).toHaveLength(1);
      const table = (tables[0] as [string, TemplateResource])[1];
      expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties.KeySchema).toEqual([
        { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: definition.sortKey.name, KeyType: 'RANGE' },
      ]);
      expect(
        (table.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map((index) => index.IndexName),
      ).toEqual(definition.globalSecondaryIndexes.map((index) => index.indexName));
      expect(table.Properties.TimeToLiveSpecification).toEqual({
        AttributeName: 'expiresAtEpochSeconds',
        Enabled: true,
      });
    });

    it('is retained, deletion-protected, point-in-time recoverable and encrypted', () => {
      // Act
      const [, table] = resourcesOfType(plain.template, 'AWS::DynamoDB::Table')[0] as [
        string,
        TemplateResource,
      ];

      // Assess
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
      expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true });
      expect(table.Properties.TableName).toBeUndefined();
    });
  });

  describe('functions', () => {
    it('runs each handler as an arm64 function on the newest Node.js runtime with active tracing', () => {
      // Act
      const functions = ALL_HANDLERS.map((handler) => functionOf(plain.template, handler)[1]);

      // Assess
      expect(resourcesOfType(plain.template, 'AWS::Lambda::Function')).toHaveLength(ALL_HANDLERS.length);
      for (const fn of functions) {
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'Active' },
        });
        expect(fn.Properties.MemorySize as number).toBeGreaterThanOrEqual(256);
        expect(fn.Properties.MemorySize as number).toBeLessThanOrEqual(1024);
      }
      // The archive streams each zip through /tmp: room for a large export file.
      expect(functionOf(plain.template, HandlerNames.ARCHIVE)[1].Properties.EphemeralStorage).toEqual({
        Size: 4096,
      });
    });

    it('logs each function to its own log group with the configured retention', () => {
      // Act
      const logGroupIds = ALL_HANDLERS.map((handler) => {
        const [, fn] = functionOf(plain.template, handler);
        return (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      });

      // Assess
      expect(new Set(logGroupIds).size).toBe(ALL_HANDLERS.length);
      const logGroups = plain.template.findResources('AWS::Logs::LogGroup');
      for (const id of logGroupIds) {
        expect(logGroups[id]?.Properties.RetentionInDays).toBe(90);
      }
    });

    it('answers the API within its 29-second limit, each workflow task within a minute, a sweep within five', () => {
      // Act
      const timeouts = Object.fromEntries(
        ALL_HANDLERS.map((handler) => [handler, functionOf(plain.template, handler)[1].Properties.Timeout]),
      );

      // Assess
      // The archive downloads and stores files of up to a few hundred MB: Lambda's longest timeout.
      expect(timeouts).toEqual({
        start: 20,
        'check-status': 20,
        abort: 20,
        list: 20,
        files: 20,
        'workflow-task': 60,
        archive: 900,
        reconcile: 300,
        coverage: 20,
        backfills: 20,
        erasures: 20,
        spots: 20,
        // An erasure's slice streams the archive's files, as the archive does.
        'erasure-task': 900,
      });
    });

    it('gives every function the environment the shared handler runtime reads', () => {
      // Act
      const environments = Object.fromEntries(
        ALL_HANDLERS.map((handler) => [handler, environmentOf(plain, handler)]),
      );

      // Assess
      for (const handler of ARCHIVE_HANDLERS) {
        expect(environments[handler]).toMatchObject({
          TABLE_NAME: expect.anything(),
          ARCHIVE_BUCKET_NAME: { Ref: expect.stringMatching(/ArchiveBucket[0-9A-F]{8}$/) },
          ARCHIVE_URL_EXPIRY_SECONDS: '900',
          EVENT_BUS_NAME: expect.anything(),
          POWERTOOLS_SERVICE_NAME: 'openweb-exports',
        });
        // No upstream credentials, workflow or deadlines: it cannot reach what it does not use.
        expect(Object.keys(environments[handler] ?? {})).not.toContain('STATE_MACHINE_ARN');
        expect(Object.keys(environments[handler] ?? {})).not.toContain('SECRET_NAME_PREFIX');
      }
      // Files presigns for the bucket's virtual-hosted URL in the stack's own partition.
      expect(environments[HandlerNames.FILES]?.ARCHIVE_BUCKET_URL).toEqual({
        'Fn::Join': [
          '',
          [
            'https://',
            { 'Fn::GetAtt': [expect.stringMatching(/ArchiveBucket[0-9A-F]{8}$/), 'RegionalDomainName'] },
          ],
        ],
      });
      for (const handler of EXPORT_HANDLERS) {
        expect(Object.keys(environments[handler] ?? {})).toEqual(expect.arrayContaining(COMMON_ENVIRONMENT));
        expect(environments[handler]).toMatchObject({
          POWERTOOLS_SERVICE_NAME: 'openweb-exports',
          POWERTOOLS_METRICS_NAMESPACE: 'OpenWebExports',
          EXPORT_DEADLINE_SECONDS: '21600',
          DEFAULT_FIRST_POLL_DELAY_SECONDS: '30',
          STATUS_FRESHNESS_SECONDS: '10',
          RECONCILE_STALE_AFTER_SECONDS: '900',
        });
      }
    });

    it('builds STATE_MACHINE_ARN from the fixed name, so the state machine may invoke these functions', () => {
      // Prepare
      const [stateMachineId] = Object.keys(plain.template.findResources('AWS::StepFunctions::StateMachine'));

      // Act
      const arn = JSON.stringify(environmentOf(plain, HandlerNames.RECONCILE).STATE_MACHINE_ARN);

      // Assess
      expect(arn).toContain(`:stateMachine:${plain.namePrefix}-ExportPolling`);
      expect(arn).not.toContain(stateMachineId as string);
      // The erasure workflow's, only to the functions that start it.
      for (const handler of [HandlerNames.ERASURES, HandlerNames.RECONCILE]) {
        expect(JSON.stringify(environmentOf(plain, handler).ERASURE_STATE_MACHINE_ARN)).toContain(
          `:stateMachine:${plain.namePrefix}-ExportErasure`,
        );
      }
      for (const handler of ALL_HANDLERS.filter(
        (name) => name !== HandlerNames.ERASURES && name !== HandlerNames.RECONCILE,
      )) {
        expect(Object.keys(environmentOf(plain, handler))).not.toContain('ERASURE_STATE_MACHINE_ARN');
      }
    });

    it('passes the configured polling values, secret prefix and log level to the functions', () => {
      // Act
      const environment = environmentOf(jwt, HandlerNames.START);

      // Assess
      expect(environment).toMatchObject({
        EXPORT_DEADLINE_SECONDS: '7200',
        DEFAULT_FIRST_POLL_DELAY_SECONDS: '45',
        STATUS_FRESHNESS_SECONDS: '20',
        SECRET_NAME_PREFIX: 'custom/openweb/',
        POWERTOOLS_LOG_LEVEL: 'DEBUG',
      });
    });

    it('turns on source-mapped stack traces in every function only when configured', () => {
      // Act
      const nodeOptions = (stack: SynthesizedTestStack) =>
        ALL_HANDLERS.map((handler) => environmentOf(stack, handler).NODE_OPTIONS);

      // Assess: Node parses a bundle's source map at every cold start only under this flag.
      expect(nodeOptions(plain)).toEqual(ALL_HANDLERS.map(() => undefined));
      expect(nodeOptions(jwt)).toEqual(ALL_HANDLERS.map(() => '--enable-source-maps'));
    });
  });

  describe('HTTP API', () => {
    it('has one route per route-table entry, each integrated with its handler function', () => {
      // Prepare
      const integrations = plain.template.findResources('AWS::ApiGatewayV2::Integration');

      // Act
      const routes = resourcesOfType(plain.template, 'AWS::ApiGatewayV2::Route').map(
        ([, route]) => route.Properties,
      );

      // Assess
      expect(resourcesOfType(plain.template, 'AWS::ApiGatewayV2::Api')).toHaveLength(1);
      expect(routes.map((route) => route.RouteKey).sort()).toEqual(
        ROUTES.map((route) => `${route.method} ${route.path}`).sort(),
      );
      for (const route of ROUTES) {
        const properties = routes.find((candidate) => candidate.RouteKey === `${route.method} ${route.path}`);
        const target = JSON.stringify(properties?.Target);
        const [integrationId, integration] =
          Object.entries(integrations).find(([id]) => target.includes(`"${id}"`)) ?? [];
        expect(integrationId).toBeDefined();
        expect(logicalIdOfGetAtt(integration?.Properties.IntegrationUri)).toBe(
          functionOf(plain.template, route.handler)[0],
        );
      }
    });

    it('requires IAM authorization on every route and has no default route', () => {
      // Act
      const routes = resourcesOfType(plain.template, 'AWS::ApiGatewayV2::Route').map(
        ([, route]) => route.Properties,
      );

      // Assess
      expect(routes).toHaveLength(ROUTES.length);
      for (const route of routes) expect(route.AuthorizationType).toBe('AWS_IAM');
      expect(routes.map((route) => route.RouteKey)).not.toContain('$default');
    });

    it('uses a JWT authorizer with the configured issuer, audience and scopes when asked to', () => {
      // Act
      const authorizers = resourcesOfType(jwt.template, 'AWS::ApiGatewayV2::Authorizer');
      const routes = resourcesOfType(jwt.template, 'AWS::ApiGatewayV2::Route').map(
        ([, route]) => route.Properties,
      );

      // Assess
      expect(authorizers).toHaveLength(1);
      const [authorizerId, authorizer] = authorizers[0] as [string, TemplateResource];
      expect(authorizer.Properties).toMatchObject({
        AuthorizerType: 'JWT',
        JwtConfiguration: { Issuer: 'https://issuer.example.com/', Audience: ['exports-api'] },
      });
      expect(routes).toHaveLength(ROUTES.length);
      for (const route of routes) {
        expect(route).toMatchObject({
          AuthorizationType: 'JWT',
          AuthorizerId: { Ref: authorizerId },
          AuthorizationScopes: ['exports/admin'],
        });
      }
    });

    it('serves the $default stage with JSON access logs and throttling', () => {
      // Act
      const stages = resourcesOfType(plain.template, 'AWS::ApiGatewayV2::Stage');

      // Assess
      expect(stages).toHaveLength(1);
      const [, stage] = stages[0] as [string, TemplateResource];
      expect(stage.Properties).toMatchObject({
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50 },
      });
      const accessLogs = stage.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
      expect(JSON.parse(accessLogs.Format)).toMatchObject({
        requestId: '$context.requestId',
        status: '$context.status',
      });
      const logGroupId = logicalIdOfGetAtt(accessLogs.DestinationArn);
      expect(
        plain.template.findResources('AWS::Logs::LogGroup')[logGroupId]?.Properties.RetentionInDays,
      ).toBe(90);
    });
  });

  describe('erasure state machine', () => {
    it('is a named Standard state machine logging errors to a log group of its own, with tracing, invoking the erasure task only', () => {
      // Act
      const machines = resourcesOfType(plain.template, 'AWS::StepFunctions::StateMachine').filter(
        ([, candidate]) => JSON.stringify(candidate.Properties.StateMachineName).includes('-ExportErasure-'),
      );

      // Assess
      expect(machines).toHaveLength(1);
      const [, machine] = machines[0] as [string, TemplateResource];
      expect(machine.Properties).toMatchObject({
        StateMachineName: { 'Fn::Join': ['', [`${plain.namePrefix}-ExportErasure-`, expect.anything()]] },
        StateMachineType: 'STANDARD',
        TracingConfiguration: { Enabled: true },
        LoggingConfiguration: { Level: 'ERROR' },
      });
      const [taskFunctionId] = functionOf(plain.template, HandlerNames.ERASURE_TASK);
      const definition = JSON.stringify(machine.Properties.DefinitionString);
      expect(definition).toContain(taskFunctionId);
      const otherFunctions = ALL_HANDLERS.filter((handler) => handler !== HandlerNames.ERASURE_TASK).map(
        (handler) => functionOf(plain.template, handler)[0],
      );
      for (const id of otherFunctions) expect(definition).not.toContain(`"${id}"`);
    });
  });

  describe('polling state machine', () => {
    it('is a named Standard state machine logging errors to a retained log group, with tracing', () => {
      // Act
      const machines = resourcesOfType(plain.template, 'AWS::StepFunctions::StateMachine').filter(
        ([, candidate]) => JSON.stringify(candidate.Properties.StateMachineName).includes('-ExportPolling-'),
      );

      // Assess
      expect(machines).toHaveLength(1);
      const [, machine] = machines[0] as [string, TemplateResource];
      expect(machine.Properties).toMatchObject({
        StateMachineName: { 'Fn::Join': ['', [`${plain.namePrefix}-ExportPolling-`, expect.anything()]] },
        StateMachineType: 'STANDARD',
        TracingConfiguration: { Enabled: true },
        LoggingConfiguration: { Level: 'ERROR' },
      });
      const destination = (
        machine.Properties.LoggingConfiguration as {
          Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: unknown } }[];
        }
      ).Destinations[0];
      const logGroup =
        plain.template.findResources('AWS::Logs::LogGroup')[
          logicalIdOfGetAtt(destination?.CloudWatchLogsLogGroup.LogGroupArn)
        ];
      expect(logGroup?.Properties).toMatchObject({ RetentionInDays: 90 });
      // Not a fixed name: the retained group of a deleted stack must not block creating it again.
      expect(logGroup?.Properties.LogGroupName).toEqual({
        'Fn::Join': [
          '',
          [
            `/aws/vendedlogs/states/${plain.namePrefix}-ExportPolling-`,
            { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] },
          ],
        ],
      });
    });
  });

  describe('event bus', () => {
    it('is a bus of its own, named after the stack', () => {
      // Act
      const buses = resourcesOfType(plain.template, 'AWS::Events::EventBus');

      // Assess
      expect(buses).toHaveLength(1);
      expect(buses[0]?.[1].Properties.Name).toBe(`${plain.namePrefix}-exports`);
      expect(environmentOf(plain, HandlerNames.START).EVENT_BUS_NAME).toEqual({ Ref: buses[0]?.[0] });
    });
  });

  describe('schedules', () => {
    it('schedules each configured spot export and the reconciler, each with a retry policy and a DLQ', () => {
      // Act
      const schedules = resourcesOfType(scheduled.template, 'AWS::Scheduler::Schedule');

      // Assess
      expect(schedules).toHaveLength(3);
      const windows = schedules.map(([, schedule]) => [
        schedule.Properties.ScheduleExpression,
        schedule.Properties.FlexibleTimeWindow,
      ]);
      expect(windows).toEqual(
        expect.arrayContaining([
          ['cron(0 2 * * ? *)', { Mode: 'OFF' }],
          ['rate(12 hours)', { Mode: 'FLEXIBLE', MaximumWindowInMinutes: 15 }],
        ]),
      );
      for (const [, schedule] of schedules) {
        expect(schedule.Properties.Target).toMatchObject({
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [expect.any(String), 'Arn'] } },
          RetryPolicy: {
            MaximumEventAgeInSeconds: expect.any(Number),
            MaximumRetryAttempts: expect.any(Number),
          },
        });
      }
    });

    it('gives every function the fleet-wide auth rate', () => {
      // Act / Assess
      for (const handler of EXPORT_HANDLERS) {
        expect(environmentOf(plain, handler).UPSTREAM_AUTH_REQUESTS_PER_SECOND).toBe('1');
      }
    });

    it('starts a spot export with the schedule input the start handler reads, in the time zone named as IANA does', () => {
      // Prepare
      const startFunctionId = functionOf(scheduled.template, HandlerNames.START)[0];

      // Act
      const schedule = resourcesOfType(scheduled.template, 'AWS::Scheduler::Schedule')
        .map(([, resource]) => resource.Properties)
        .find((properties) => properties.ScheduleExpression === 'cron(0 2 * * ? *)');

      // Assess: configured as `europe/paris`.
      expect(schedule?.ScheduleExpressionTimezone).toBe('Europe/Paris');
      const target = schedule?.Target as { Arn: unknown; Input: string; RetryPolicy: unknown };
      expect(logicalIdOfGetAtt(target.Arn)).toBe(startFunctionId);
      expect(JSON.parse(target.Input)).toEqual({
        source: 'schedule',
        spotId: 'sp_abc123',
        schedule: 'schedule-0',
        window: 'P1D',
        scheduledTime: '<aws.scheduler.scheduled-time>',
      });
      expect(target.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 3_600, MaximumRetryAttempts: 3 });
    });

    it('runs the reconciler on the reconcile function at the configured rate', () => {
      // Prepare
      const reconcileId = functionOf(plain.template, HandlerNames.RECONCILE)[0];

      // Act
      const schedules = resourcesOfType(plain.template, 'AWS::Scheduler::Schedule');

      // Assess
      expect(schedules).toHaveLength(1);
      const [, reconciler] = schedules[0] as [string, TemplateResource];
      expect(reconciler.Properties.ScheduleExpression).toBe('rate(5 minutes)');
      const target = reconciler.Properties.Target as { Arn: unknown; Input: string };
      expect(logicalIdOfGetAtt(target.Arn)).toBe(reconcileId);
      expect(JSON.parse(target.Input)).toEqual({ source: 'reconciler' });
    });

    it('keeps dead letters encrypted, TLS-only, and also collects what the handlers failed on', () => {
      // Prepare
      const queues = resourcesOfType(scheduled.template, 'AWS::SQS::Queue');
      const policies = resourcesOfType(scheduled.template, 'AWS::SQS::QueuePolicy');

      // Act
      const invokeConfigs = resourcesOfType(scheduled.template, 'AWS::Lambda::EventInvokeConfig');

      // Assess
      expect(queues).toHaveLength(2);
      for (const [queueId, queue] of queues) {
        expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
        const policy = policies.find(([, candidate]) =>
          JSON.stringify(candidate.Properties.Queues).includes(queueId),
        );
        expect(policy?.[1].Properties.PolicyDocument).toMatchObject({
          Statement: expect.arrayContaining([
            expect.objectContaining({
              Effect: 'Deny',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        });
      }
      const failureQueues = invokeConfigs.map(([, config]) =>
        logicalIdOfGetAtt(
          (config.Properties.DestinationConfig as { OnFailure: { Destination: unknown } }).OnFailure
            .Destination,
        ),
      );
      expect(failureQueues.sort()).toEqual(queues.map(([id]) => id).sort());
    });
  });

  describe('monitoring', () => {
    it('alarms on crashed and timed-out workflows, failed workflow starts, coverage gaps, unpublished events, every DLQ and every function', () => {
      // Act
      const alarms = resourcesOfType(scheduled.template, 'AWS::CloudWatch::Alarm').map(
        ([, alarm]) => alarm.Properties,
      );

      // Assess: the crash alarm is metric math (failed executions less business outcomes).
      const metricNames = alarms.map((alarm) => alarm.MetricName ?? 'expression').sort();
      expect(metricNames).toEqual(
        [
          'expression',
          // The erasure workflow's: failed or timed-out executions.
          'expression',
          'ExecutionsTimedOut',
          'WorkflowStartsFailed',
          'CoverageGaps',
          'EventsNotPublished',
          'StaleSpots',
          'ApproximateNumberOfMessagesVisible',
          'ApproximateNumberOfMessagesVisible',
          ...ALL_HANDLERS.map((handler) => `${handler}-UnexpectedErrors`),
          ...Array(ALL_HANDLERS.length).fill('Throttles'),
        ].sort(),
      );
      // Lambda's own Errors metric counts the workflow tasks' named control errors: no alarm on it.
      expect(metricNames).not.toContain('Errors');
      // A gap is counted from every function's log lines (any function that ends an export may record one).
      const gapFilters = resourcesOfType(scheduled.template, 'AWS::Logs::MetricFilter').filter(([, filter]) =>
        JSON.stringify(filter.Properties).includes('$.CoverageGaps'),
      );
      expect(gapFilters).toHaveLength(2 * ALL_HANDLERS.length);
      // So is an event EventBridge refused past its retries (any function that ends an export, records a gap or archives).
      const unpublishedFilters = resourcesOfType(scheduled.template, 'AWS::Logs::MetricFilter').filter(
        ([, filter]) => JSON.stringify(filter.Properties).includes('$.EventsNotPublished'),
      );
      expect(unpublishedFilters).toHaveLength(2 * ALL_HANDLERS.length);
      // Every alarm but freshness fires on the first unexpected event; freshness at its configured
      // count of stale spots (test/integration/infra/freshnessAlarm.test.ts).
      for (const alarm of alarms.filter((candidate) => candidate.MetricName !== 'StaleSpots')) {
        expect(alarm).toMatchObject({
          ComparisonOperator: 'GreaterThanThreshold',
          Threshold: 0,
          TreatMissingData: 'notBreaching',
        });
      }
      expect(alarms.find((alarm) => alarm.MetricName === 'StaleSpots')).toMatchObject({
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
    });

    it('counts unexpected failures from each function’s ERROR log lines and the runtime’s failure lines', () => {
      // Act
      const filters = resourcesOfType(scheduled.template, 'AWS::Logs::MetricFilter').map(
        ([, filter]) => filter.Properties,
      );

      // Assess
      // Two per function for its unexpected errors, two for its coverage gaps and two for its
      // unpublished events, two per workflow starter (start, reconcile), one per Fail state of the
      // workflow, and the reconciler's two freshness metrics (stale spots, each spot's hours behind).
      expect(filters).toHaveLength(3 * 2 * ALL_HANDLERS.length + 2 * 2 + 4 + 2);
      const unexpected = filters.filter((filter) =>
        (filter.MetricTransformations as { MetricName: string }[])[0]?.MetricName.endsWith(
          '-UnexpectedErrors',
        ),
      );
      expect(unexpected).toHaveLength(2 * ALL_HANDLERS.length);
      const patterns = new Set(unexpected.map((filter) => filter.FilterPattern));
      expect(patterns).toEqual(
        new Set([
          '{ $.level = "ERROR" }',
          '?"Task timed out" ?"Runtime.ExitError" ?"Runtime.ImportModuleError"',
        ]),
      );
      for (const filter of filters) {
        expect(filter.MetricTransformations).toEqual([
          expect.objectContaining({ MetricNamespace: `OpenWebExports/${scheduled.namePrefix}` }),
        ]);
      }
    });

    it('has a dashboard', () => {
      // Act
      const dashboards = resourcesOfType(plain.template, 'AWS::CloudWatch::Dashboard');

      // Assess
      expect(dashboards).toHaveLength(1);
      expect(dashboards[0]?.[1].Properties.DashboardName).toEqual({
        'Fn::Join': ['', [`${plain.namePrefix}-`, { Ref: 'AWS::Region' }]],
      });
    });

    it('notifies the configured addresses through an encrypted topic', () => {
      // Prepare
      const topics = resourcesOfType(scheduled.template, 'AWS::SNS::Topic');

      // Act
      const alarms = resourcesOfType(scheduled.template, 'AWS::CloudWatch::Alarm').map(
        ([, alarm]) => alarm.Properties,
      );

      // Assess
      expect(topics).toHaveLength(1);
      const [topicId, topic] = topics[0] as [string, TemplateResource];
      expect(topic.Properties.KmsMasterKeyId).toBeDefined();
      scheduled.template.resourcePropertiesCountIs(
        'AWS::SNS::Subscription',
        { Protocol: 'email', TopicArn: { Ref: topicId } },
        2,
      );
      for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    });

    it('creates no topic when no address is configured', () => {
      // Act
      const alarms = resourcesOfType(plain.template, 'AWS::CloudWatch::Alarm').map(
        ([, alarm]) => alarm.Properties,
      );

      // Assess
      plain.template.resourceCountIs('AWS::SNS::Topic', 0);
      expect(alarms.length).toBeGreaterThan(0);
      for (const alarm of alarms) expect(alarm.AlarmActions).toBeUndefined();
    });
  });
});

describe('two deployments in one account and region', () => {
  function databaseNames(app: App): Record<string, unknown> {
    return Object.fromEntries(
      app.node.children
        .filter((child): child is Stack => child instanceof Stack)
        .map((stack) => [
          stack.stackName,
          resourcesOfType(Template.fromStack(stack), 'AWS::Glue::Database')[0]?.[1].Properties.DatabaseInput,
        ]),
    );
  }

  it('synthesize two Glue databases of different names, unless one is configured', () => {
    // Prepare
    const app = new App({
      context: { ...cdkJsonContext(), ...SKIP_BUNDLING_CONTEXT },
      outdir: newAssemblyDirectory(),
    });
    const env = { account: '111111111111', region: 'eu-west-1' };
    for (const stackName of ['OpenWebExports', 'OpenWebExports-staging']) {
      new OpenWebExportsStack(app, stackName, { env, stackName, config: parseStackConfig({}, 'props') });
    }
    new OpenWebExportsStack(app, 'Named', {
      env,
      stackName: 'OpenWebExports-named',
      config: parseStackConfig({ archive: { catalogDatabaseName: 'openweb_exports' } }, 'props'),
    });

    // Act
    const names = databaseNames(app);

    // Assess
    expect(names).toEqual({
      OpenWebExports: { Name: 'openwebexports', Description: expect.any(String) },
      'OpenWebExports-staging': { Name: 'openwebexports_staging', Description: expect.any(String) },
      // A configured name wins: a deployment made before keeps its database by naming it.
      'OpenWebExports-named': { Name: 'openweb_exports', Description: expect.any(String) },
    });
  });
});
