import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../../functions/list';
import { defaultExportDependencies, defaultHandlerRuntime } from '../../../lib/runtime/defaultHandlerRuntime';
import { apiRequests, lambdaContext, parseResponse } from '../http/support/apiGatewayEvents';

describe('defaultHandlerRuntime', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is built once per container', () => {
    // Act / Assess
    expect(defaultHandlerRuntime()).toBe(defaultHandlerRuntime());
  });

  it('lets a deployed handler answer a 500 problem when its configuration is incomplete', async () => {
    // Prepare
    vi.stubEnv('TABLE_NAME', '');
    vi.stubEnv('STATE_MACHINE_ARN', '');
    vi.spyOn(defaultHandlerRuntime().logger, 'error').mockImplementation(() => {});

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

    // Act
    const first = defaultExportDependencies();
    const second = defaultExportDependencies();

    // Assess
    expect(second).toBe(first);
    expect(first.settings.statusFreshnessSeconds).toBe(42);
  });
});
