import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CfnResource, Duration, Size, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type HandlerName, handlerEntryPath } from '../lib/http/routeTable';
import { HANDLER_METADATA_KEY } from './extractStateMachine';
import { FUNCTION_BUNDLING } from './functionBundling';

/** The repository root: entry paths in the route table are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The newest Node.js runtime aws-cdk-lib offers (cdk-nag AwsSolutions-L1 asks for the latest). */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** What turns on stack traces through the source map shipped beside each bundle. */
const SOURCE_MAP_NODE_OPTIONS = '--enable-source-maps';

export interface ExportFunctionProps {
  handler: HandlerName;
  memorySizeMb: number;
  timeoutSeconds: number;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** /tmp size; Lambda's default is 512 MB. */
  ephemeralStorageMb?: number;
  /**
   * Stack traces through the shipped source map (`--enable-source-maps`). Node then reads and
   * parses the map at every cold start, which costs module init (docs/performance.md, "Cold start").
   */
  sourceMapStackTraces: boolean;
}

/**
 * One handler as a Lambda function: bundled locally by esbuild (never Docker), its own
 * log group with retention, and its own role holding nothing but log writes and tracing
 * until grants are added with `addToPolicy`.
 */
export class ExportFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  readonly handlerName: HandlerName;

  constructor(scope: Construct, id: string, props: ExportFunctionProps) {
    super(scope, id);
    this.handlerName = props.handler;
    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: props.logRetention });
    // An explicit role instead of AWSLambdaBasicExecutionRole: that managed policy may create log groups anywhere.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the ${props.handler} handler`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: join(PROJECT_ROOT, handlerEntryPath(props.handler)),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySizeMb,
      timeout: Duration.seconds(props.timeoutSeconds),
      ...(props.ephemeralStorageMb !== undefined && {
        ephemeralStorageSize: Size.mebibytes(props.ephemeralStorageMb),
      }),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      environment: {
        ...props.environment,
        ...(props.sourceMapStackTraces && { NODE_OPTIONS: SOURCE_MAP_NODE_OPTIONS }),
      },
      bundling: FUNCTION_BUNDLING,
    });
    (this.function.node.defaultChild as CfnResource).addMetadata(HANDLER_METADATA_KEY, props.handler);

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, which X-Ray does not scope to resources.',
    });
  }

  addToPolicy(...statements: iam.PolicyStatement[]): void {
    for (const statement of statements) this.role.addToPrincipalPolicy(statement);
  }
}
