import { Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ExportArchiveBucket } from './ExportArchiveBucket';
import { ExportFunctions } from './ExportFunctions';
import { ExportSchedules } from './ExportSchedules';
import { ExportsHttpApi } from './ExportsHttpApi';
import { ExportsMonitoring, UNEXPECTED_ERRORS_NAMESPACE } from './ExportsMonitoring';
import { ExportTable } from './ExportTable';
import { PollingWorkflow } from './PollingWorkflow';
import { pollingStateMachineIdentity } from './pollingStateMachineIdentity';
import { parseStackConfig, type StackConfig, type StackConfigInput } from './stackConfig';

/** One export schedule of a spot: each run exports the `window` that ends at its scheduled time. */
export interface OpenWebExportsScheduleProps {
  /** EventBridge Scheduler expression: `cron(<6 fields>)` or `rate(<n> <unit>)`. */
  expression: string;
  /** ISO 8601 duration of each run's export window, e.g. `P1D`; at most 730 hours. */
  window: string;
  /** IANA time zone of a cron expression (default UTC). */
  timeZone?: string;
  /** Runs fire at a random moment within this many minutes (1 to 1440) of their time. Default: none. */
  flexibleWindowMinutes?: number;
}

/** A spot whose credentials are in Secrets Manager as `<secretNamePrefix><spotId>`. */
export interface OpenWebExportsSpotProps {
  /** `sp_…` */
  spotId: string;
  /** Default: none, exports are started through the API only. */
  schedules?: OpenWebExportsScheduleProps[];
}

/** Who may call the HTTP API. */
export type OpenWebExportsAuthProps =
  | {
      /** IAM (SigV4): callers need `execute-api:Invoke` on the API. */
      mode: 'iam';
      /**
       * The spots each IAM role (through any of its sessions) or user may use, by ARN
       * (`arn:aws:iam::<account>:role/<name>`, path optional): requests for any other `x-spot-id`,
       * or from a signer not listed, get 403. At most 2,048 characters as JSON. Default: any
       * signer allowed to invoke the API may use any spot.
       */
      spotsByPrincipal?: Record<string, string[]>;
    }
  | {
      /** API Gateway's JWT authorizer. */
      mode: 'jwt';
      /** The https URL of the token issuer. */
      issuer: string;
      /** Accepted audiences, at least one. */
      audience: string[];
      /** Scopes every route requires. Default: none. */
      scopes?: string[];
      /** The claim listing the spots a token may use; requests for any other `x-spot-id` get 403. */
      spotClaim?: string;
    };

/** How exports are polled and reconciled. */
export interface OpenWebExportsPollingProps {
  /** Seconds an export may run before it is aborted (300 to 604800). Default 21600. */
  exportDeadlineSeconds?: number;
  /** Seconds before the first status poll. Default 30. */
  defaultFirstPollDelaySeconds?: number;
  /** First interval between polls, in seconds. Default 10. */
  statusPollIntervalSeconds?: number;
  /** Longest interval between polls, in seconds. Default 300. */
  statusPollMaxDelaySeconds?: number;
  /** An API status read this recent (seconds) is served from the table. Default 10. */
  statusFreshnessSeconds?: number;
  /** The reconciler repairs active exports not polled for this many seconds. Default 900. */
  reconcileStaleAfterSeconds?: number;
  /** How often the reconciler runs, e.g. `rate(5 minutes)` (the default). */
  reconcileRate?: string;
}

/** The HTTP API stage's throttling. */
export interface OpenWebExportsApiProps {
  /** Requests per second. Default 25. */
  throttlingRateLimit?: number;
  /** Burst. Default 50. */
  throttlingBurstLimit?: number;
}

/** Where finished exports' files are kept (S3), and for how long. */
export interface OpenWebExportsArchiveProps {
  /** Days after which archived files move to Standard-IA (at least 30); `null` keeps them in Standard. Default 90. */
  infrequentAccessAfterDays?: number | null;
  /** Days after which archived files are deleted (more than `infrequentAccessAfterDays`). Default: kept. */
  expireAfterDays?: number;
  /** Days a version replaced by a re-archive is kept. Default 30. */
  noncurrentVersionExpireAfterDays?: number;
  /** A customer-managed KMS key ARN for the bucket, in the stack's region. Default: S3-managed keys (SSE-S3). */
  kmsKeyArn?: string;
  /** How long a `/files` download URL works, in seconds (60 to 43200). Default 900. */
  downloadUrlExpirySeconds?: number;
}

/**
 * The configuration of an openweb-exports deployment: the same keys, validation and defaults as
 * the `openwebExports` context of `cdk.json` (see the README's configuration table).
 */
export interface OpenWebExportsConfigProps {
  /**
   * The name of a table an earlier deployment of this stack left behind (the table is retained
   * when the stack is deleted): the deployment uses it, records and all, instead of creating one.
   * It must be a table this project created. Default: a new table.
   */
  existingTableName?: string;
  /** The spots to export on a schedule. Default: none. */
  spots?: OpenWebExportsSpotProps[];
  /** Secrets Manager name prefix of the spots' credentials; the functions may read only these. Default `openweb-exports/spots/`. */
  secretNamePrefix?: string;
  /**
   * The customer-managed KMS key ARN the spots' secrets are encrypted with (same region as the
   * stack); the functions that read secrets may decrypt with it through Secrets Manager only.
   * Default: the secrets use the AWS-managed key `aws/secretsmanager`, which needs no grant.
   */
  secretsKmsKeyArn?: string;
  /** Default `{ mode: 'iam' }`. */
  auth?: OpenWebExportsAuthProps;
  /** OpenWeb's auth API. Default the production URL. */
  openWebAuthBaseUrl?: string;
  /** OpenWeb's export API. Default the production URL. */
  openWebExportBaseUrl?: string;
  /** Hosts download links may point at (`host`, `host:port` or `*.domain.tld`). Default `*.openweb.com`. */
  openWebDownloadHosts?: string[];
  /** Auth requests per second for the whole deployment. Default 1. */
  upstreamAuthRequestsPerSecond?: number;
  polling?: OpenWebExportsPollingProps;
  api?: OpenWebExportsApiProps;
  archive?: OpenWebExportsArchiveProps;
  /** Retention of every log group, one of CloudWatch Logs' values. Default 90. */
  logRetentionDays?: number;
  /** The functions' log level. Default `INFO`. */
  logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /**
   * What the workflow logs: `ERROR` (failures, the Fail states the alarms count) or `ALL` (every
   * event, about three per poll). Default `ERROR`.
   */
  workflowLogLevel?: 'ERROR' | 'ALL';
  /**
   * Stack traces in the logs point at the TypeScript source, through the source map shipped
   * beside each bundle (`NODE_OPTIONS=--enable-source-maps`); this costs every cold start.
   * Default false: traces point into the minified bundle, whose map is in the function's code.
   */
  sourceMapStackTraces?: boolean;
  /** Who the alarms notify. Default: nobody (the alarms still fire). */
  alarmEmail?: string | string[];
}

export interface OpenWebExportsProps extends OpenWebExportsConfigProps {
  /**
   * Prefix of the names the deployment gives AWS resources (the state machine, the event bus,
   * the dashboard, which adds the region): unique per account and region. Default `<stack name>-<construct id>`.
   */
  namePrefix?: string;
}

/** The props describe the configuration schema exactly: each is accepted by it, and it accepts nothing else. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const CONSTRUCT_PROPS_MATCH_CONFIG: Same<
  Required<OpenWebExportsConfigProps>,
  Required<StackConfigInput>
> = true;

/**
 * Everything openweb-exports runs on in AWS: the table, the archive bucket, the eight functions, the HTTP API, the
 * polling workflow, the export event bus, the schedules, and alarms with a dashboard. Place it in
 * any stack; `OpenWebExportsStack` is this construct alone in a stack configured from context.
 */
export class OpenWebExports extends Construct {
  /** The validated configuration, defaults filled in. */
  readonly config: StackConfig;
  readonly namePrefix: string;
  readonly table: ExportTable;
  readonly archive: ExportArchiveBucket;
  readonly eventBus: events.EventBus;
  readonly functions: ExportFunctions;
  readonly workflow: PollingWorkflow;
  readonly httpApi: ExportsHttpApi;
  readonly schedules: ExportSchedules;
  readonly monitoring: ExportsMonitoring;

  /** @throws StackConfigError naming each invalid prop */
  constructor(scope: Construct, id: string, props: OpenWebExportsProps = {}) {
    const { namePrefix, ...configProps } = props;
    // Validated before the construct joins the tree, so invalid props leave nothing behind.
    const config = parseStackConfig(configProps, 'props');
    super(scope, id);
    this.config = config;
    this.namePrefix = namePrefix ?? `${Stack.of(this).stackName}-${id}`;
    // Config accepts only the values CloudWatch Logs accepts, which are RetentionDays' values.
    const logRetention = config.logRetentionDays as logs.RetentionDays;

    this.table = new ExportTable(this, 'ExportTable', { existingTableName: config.existingTableName });
    // A bus of its own: consumers subscribe to export events without sharing the account's default bus,
    // and the functions' PutEvents grant names this bus only.
    this.eventBus = new events.EventBus(this, 'ExportEvents', { eventBusName: `${this.namePrefix}-exports` });

    this.archive = new ExportArchiveBucket(this, 'Archive', { config: config.archive });
    const workflowIdentity = pollingStateMachineIdentity(Stack.of(this), this.namePrefix);
    this.functions = new ExportFunctions(this, 'Functions', {
      config,
      archive: this.archive,
      table: this.table,
      eventBus: this.eventBus,
      stateMachineArn: workflowIdentity.stateMachineArn,
      executionsArn: workflowIdentity.executionsArn,
      logRetention,
    });
    this.workflow = new PollingWorkflow(this, 'PollingWorkflow', {
      stateMachineName: workflowIdentity.name,
      logGroupName: workflowIdentity.logGroupName,
      workflowTaskFunction: this.functions.workflowTask.function,
      archiveFunction: this.functions.archive.function,
      polling: config.polling,
      logRetention,
      logLevel: config.workflowLogLevel,
    });
    this.httpApi = new ExportsHttpApi(this, 'HttpApi', {
      functionFor: (handler) => this.functions.byHandler(handler),
      auth: config.auth,
      throttlingRateLimit: config.api.throttlingRateLimit,
      throttlingBurstLimit: config.api.throttlingBurstLimit,
      logRetention,
      namePrefix: this.namePrefix,
    });
    this.schedules = new ExportSchedules(this, 'Schedules', {
      spots: config.spots,
      startFunction: this.functions.start.function,
      reconcileFunction: this.functions.reconcile.function,
      reconcileRate: config.polling.reconcileRate,
    });
    this.monitoring = new ExportsMonitoring(this, 'Monitoring', {
      // Dashboards are global per account: the region keeps a second region's deployment from colliding.
      dashboardName: `${this.namePrefix}-${Stack.of(this).region}`,
      // Metric names are per account and region: a namespace of its own keeps two deployments' alarms apart.
      metricNamespace: `${UNEXPECTED_ERRORS_NAMESPACE}/${this.namePrefix}`,
      stateMachine: this.workflow.stateMachine,
      workflowLogGroup: this.workflow.logGroup,
      workflowStarters: [this.functions.start, this.functions.reconcile],
      functions: this.functions.all(),
      deadLetterQueues: this.schedules.allDeadLetterQueues(),
      httpApi: this.httpApi.api,
      alarmEmails: config.alarmEmail,
    });
  }

  /** Base URL of the HTTP API. */
  get apiUrl(): string {
    return this.httpApi.url;
  }
}
