import type * as events from 'aws-cdk-lib/aws-events';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { EXPORT_FUNCTIONS, type FunctionSize } from '../functions/registry';
import type { HandlerName } from '../lib/http/routeTable';
import type { ExportArchiveBucket } from './ExportArchiveBucket';
import { ExportFunction } from './ExportFunction';
import type { ExportsLake } from './ExportsLake';
import type { ExportTable } from './ExportTable';
import { FunctionGrants } from './FunctionGrants';
import { fleetFreshnessTargets } from './fleetFreshnessTargets';
import { functionEnvironment } from './functionEnvironment';
import type { StackConfig } from './stackConfig';
import { ARCHIVE_FUNCTION_TIMEOUT_SECONDS, WORKFLOW_TASK_FUNCTION_TIMEOUT_SECONDS } from './workflowRetries';

/** API Gateway gives up on an integration after 30 s; the API-fronted functions finish well before. */
export const API_FUNCTION_TIMEOUT_SECONDS = 20;
/** One reconciler sweep repairs up to a batch of exports, each maybe polling or aborting upstream. */
export const RECONCILE_FUNCTION_TIMEOUT_SECONDS = 5 * 60;
export const API_FUNCTION_MEMORY_MB = 256;
/** The workflow's tasks and the reconciler: room for the upstream client and link sets of thousands. */
export const WORKFLOW_FUNCTION_MEMORY_MB = 512;
/** The archive task streams files of up to a few hundred MB: memory for the network and the writers. */
export const ARCHIVE_MEMORY_MB = 1024;
/** Each link's zip is kept in /tmp while its CSVs are stored. */
export const ARCHIVE_EPHEMERAL_STORAGE_MB = 4096;

const FUNCTION_SIZES: Record<
  FunctionSize,
  { memorySizeMb: number; timeoutSeconds: number; ephemeralStorageMb?: number }
> = {
  api: { memorySizeMb: API_FUNCTION_MEMORY_MB, timeoutSeconds: API_FUNCTION_TIMEOUT_SECONDS },
  workflowTask: {
    memorySizeMb: WORKFLOW_FUNCTION_MEMORY_MB,
    timeoutSeconds: WORKFLOW_TASK_FUNCTION_TIMEOUT_SECONDS,
  },
  reconcile: {
    memorySizeMb: WORKFLOW_FUNCTION_MEMORY_MB,
    timeoutSeconds: RECONCILE_FUNCTION_TIMEOUT_SECONDS,
  },
  archive: {
    memorySizeMb: ARCHIVE_MEMORY_MB,
    timeoutSeconds: ARCHIVE_FUNCTION_TIMEOUT_SECONDS,
    ephemeralStorageMb: ARCHIVE_EPHEMERAL_STORAGE_MB,
  },
};

export interface ExportFunctionsProps {
  config: StackConfig;
  table: ExportTable;
  eventBus: events.IEventBus;
  /** Built from the state machine's fixed name, not taken from the resource: the state machine invokes these functions. */
  stateMachineArn: string;
  /** `arn:...:execution:<state machine name>:*` */
  executionsArn: string;
  /** The erasure workflow's, built from its name like the polling workflow's. */
  erasureStateMachineArn: string;
  logRetention: logs.RetentionDays;
  archive: ExportArchiveBucket;
  lake: ExportsLake;
}

/**
 * The functions of the registry (functions/registry.ts) as Lambda functions, each with the
 * settings it reads and only the grants its access names.
 */
export class ExportFunctions extends Construct {
  readonly #byHandler = new Map<HandlerName, ExportFunction>();

  constructor(scope: Construct, id: string, props: ExportFunctionsProps) {
    super(scope, id);
    const { config } = props;
    // Configuration, not access: a function builds only the clients its code paths use
    // (lib/runtime/adapterFactories) and is granted only what those call.
    const resources = {
      TABLE_NAME: props.table.table.tableName,
      STATE_MACHINE_ARN: props.stateMachineArn,
      EVENT_BUS_NAME: props.eventBus.eventBusName,
      ARCHIVE_BUCKET_NAME: props.archive.bucket.bucketName,
    };
    // The URL a reader of the archive presigns downloads for, virtual-hosted in the stack's own partition.
    const archiveBucketUrl = `https://${props.archive.bucket.bucketRegionalDomainName}`;
    const grants = new FunctionGrants(this, props);
    // Each configured spot's freshness target, for the fleet view and the reconciler's freshness watch.
    const freshnessTargets = JSON.stringify(fleetFreshnessTargets(config));

    for (const definition of EXPORT_FUNCTIONS) {
      const fn = new ExportFunction(this, constructIdOf(definition.name), {
        handler: definition.name,
        ...FUNCTION_SIZES[definition.size],
        environment: functionEnvironment(definition.settings, config, {
          ...resources,
          ...(definition.access.archive === 'read' && { ARCHIVE_BUCKET_URL: archiveBucketUrl }),
          ...(definition.access.erasureWorkflow !== undefined && {
            ERASURE_STATE_MACHINE_ARN: props.erasureStateMachineArn,
          }),
          ...(definition.settings === 'lifecycle' && { FLEET_FRESHNESS_TARGETS: freshnessTargets }),
          ...(definition.access.tableQuery && { LAKE_WORK_GROUP_NAME: props.lake.workGroupName }),
        }),
        logRetention: props.logRetention,
        sourceMapStackTraces: config.sourceMapStackTraces,
      });
      grants.grant(fn, definition.access);
      this.#byHandler.set(definition.name, fn);
    }
  }

  all(): ExportFunction[] {
    return [...this.#byHandler.values()];
  }

  byHandler(handler: HandlerName): ExportFunction {
    const found = this.#byHandler.get(handler);
    if (found === undefined) throw new Error(`no function runs the ${handler} handler`);
    return found;
  }
}

/** `workflow-task` → `WorkflowTask`. */
function constructIdOf(name: HandlerName): string {
  return name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
