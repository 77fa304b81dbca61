import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeListHandler } from '../../../../functions/list';
import { ConfigError } from '../../../../lib/config';
import { dynamoDbExportStoreFactory } from '../../../../lib/runtime/adapterFactories/dynamoDbFactories';
import { defaultHandlerRuntime } from '../../../../lib/runtime/defaultHandlerRuntime';
import { LIFECYCLE_ADAPTERS } from '../../../../lib/runtime/lifecycleAdapters';
import { apiRequests, lambdaContext, parseResponse } from '../../../support/apiGatewayEvents';

describe('defaultHandlerRuntime', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('lets a deployed handler answer a 500 problem when its configuration is incomplete', async () => {
    // Prepare: the list function's own runtime, as functions/list.ts builds it
    vi.stubEnv('TABLE_NAME', '');
    vi.stubEnv('STATE_MACHINE_ARN', '');
    const runtime = defaultHandlerRuntime({ store: dynamoDbExportStoreFactory });
    vi.spyOn(runtime.logger, 'error').mockImplementation(() => {});
    const handler = makeListHandler(runtime);

    // Act
    const response = parseResponse(await handler(apiRequests.list('sp_abc'), lambdaContext()));

    // Assess
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('application/problem+json');
  });

  it('builds the AWS dependencies from the environment on first use and keeps them', () => {
    // Prepare
    vi.stubEnv('AWS_REGION', 'eu-west-1');
    vi.stubEnv('TABLE_NAME', 'openweb-exports');
    vi.stubEnv('STATE_MACHINE_ARN', 'arn:aws:states:eu-west-1:123456789012:stateMachine:ExportPolling');
    vi.stubEnv('STATUS_FRESHNESS_SECONDS', '42');
    const runtime = defaultHandlerRuntime(LIFECYCLE_ADAPTERS);

    // Act
    const first = runtime.dependencies();
    const second = runtime.dependencies();

    // Assess
    expect(second).toBe(first);
    expect(first.settings.statusFreshnessSeconds).toBe(42);
  });

  it('builds only the adapters it is given, and needs only their resources', () => {
    // Prepare: no state machine; listing does not start workflows
    vi.stubEnv('AWS_REGION', 'eu-west-1');
    vi.stubEnv('TABLE_NAME', 'openweb-exports');
    vi.stubEnv('STATE_MACHINE_ARN', '');

    // Act
    const dependencies = defaultHandlerRuntime({ store: dynamoDbExportStoreFactory }).dependencies();

    // Assess
    expect(Object.keys(dependencies).sort()).toEqual([
      'archiveSettings',
      'metrics',
      'now',
      'settings',
      'store',
    ]);
  });

  it('names every missing resource of its ports at once', () => {
    // Prepare
    vi.stubEnv('TABLE_NAME', '');
    vi.stubEnv('STATE_MACHINE_ARN', '');

    // Act
    let error: unknown;
    try {
      defaultHandlerRuntime(LIFECYCLE_ADAPTERS).dependencies();
    } catch (caught) {
      error = caught;
    }

    // Assess
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'TABLE_NAME is required',
      'STATE_MACHINE_ARN is required',
    ]);
  });
});
