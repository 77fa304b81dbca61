import { Fn } from 'aws-cdk-lib';
import { AccessLogField, AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer, HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type HandlerName, ROUTES } from '../lib/http/routeTable';
import type { ExportFunction } from './ExportFunction';
import type { StackConfig } from './stackConfig';
import { stackInstanceId } from './stackInstanceId';

/** `$default` serves the API at its root URL, with no stage segment in the path. */
const DEFAULT_STAGE_NAME = '$default';

/** One JSON object per request; `requestId` is what API Gateway support asks for. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    requestTime: AccessLogField.contextRequestTime(),
    httpMethod: AccessLogField.contextHttpMethod(),
    routeKey: '$context.routeKey',
    path: AccessLogField.contextPath(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    responseLatency: AccessLogField.contextResponseLatency(),
    integrationStatus: AccessLogField.contextIntegrationStatus(),
    integrationError: '$context.integrationErrorMessage',
    authorizerError: '$context.authorizer.error',
    sourceIp: AccessLogField.contextIdentitySourceIp(),
    userAgent: AccessLogField.contextIdentityUserAgent(),
    caller: AccessLogField.contextIdentityUserArn(),
  }),
);

export interface ExportsHttpApiProps {
  functionFor: (handler: HandlerName) => ExportFunction;
  auth: StackConfig['auth'];
  throttlingRateLimit: number;
  throttlingBurstLimit: number;
  logRetention: logs.RetentionDays;
  /** Starts the access log group's name. */
  namePrefix: string;
}

/**
 * The HTTP API: one route per entry of the shared route table, each served by its
 * handler's function and authorized (IAM by default, JWT when configured). No default
 * route: an unknown path is API Gateway's 404, never a function invocation.
 */
export class ExportsHttpApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ExportsHttpApiProps) {
    super(scope, id);
    const auth = props.auth;
    this.api = new apigwv2.HttpApi(this, 'Api', {
      description: 'OpenWeb comment exports: start, list, check and abort',
      createDefaultStage: false,
      defaultAuthorizer:
        auth.mode === 'jwt'
          ? new HttpJwtAuthorizer('JwtAuthorizer', auth.issuer, { jwtAudience: auth.audience })
          : new HttpIamAuthorizer(),
      ...(auth.mode === 'jwt' && auth.scopes?.length ? { defaultAuthorizationScopes: auth.scopes } : {}),
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      // The vended-logs prefix keeps CloudWatch Logs' account-wide resource policy from growing per
      // API. The group is retained with its logs: the stack instance's UUID lets the stack be created
      // again beside the group a deleted instance left ("already exists" otherwise).
      logGroupName: Fn.join('', [
        `/aws/vendedlogs/apigateway/${props.namePrefix}-access-`,
        stackInstanceId(this),
      ]),
      retention: props.logRetention,
    });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: DEFAULT_STAGE_NAME,
      autoDeploy: true,
      throttle: { rateLimit: props.throttlingRateLimit, burstLimit: props.throttlingBurstLimit },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogs),
        format: ACCESS_LOG_FORMAT,
      },
    });

    const integrations = new Map<HandlerName, HttpLambdaIntegration>();
    for (const route of ROUTES) {
      let integration = integrations.get(route.handler);
      if (integration === undefined) {
        integration = new HttpLambdaIntegration(
          `${route.handler}-integration`,
          props.functionFor(route.handler).function,
        );
        integrations.set(route.handler, integration);
      }
      this.api.addRoutes({
        path: route.path,
        methods: [apigwv2.HttpMethod[route.method]],
        integration,
      });
    }
  }

  /** The API's base URL (the `$default` stage has no path segment). */
  get url(): string {
    return this.api.apiEndpoint;
  }
}
