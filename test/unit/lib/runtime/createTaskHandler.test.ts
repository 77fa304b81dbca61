import { describe, expect, it, vi } from 'vitest';
import type { ExportDependencies } from '../../../../lib/exports/ExportDependencies';
import { SpotBusyError } from '../../../../lib/exports/queue/errors';
import {
  ExportCreateRejectedError,
  ExportStillProcessingError,
} from '../../../../lib/exports/workflow/errors';
import { createTaskHandler } from '../../../../lib/runtime/createTaskHandler';
import type { HandlerRuntime } from '../../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../../local/InMemoryExportMetrics';
import { apiEvent, lambdaContext, silentLogger } from '../../../support/apiGatewayEvents';

function runtimeWith(): HandlerRuntime {
  return {
    logger: silentLogger(),
    metrics: new InMemoryExportMetrics(),
    dependencies: () => ({}) as ExportDependencies,
  };
}

function handlerThrowing(error: unknown, runtime = runtimeWith()) {
  return createTaskHandler(runtime, async () => {
    throw error;
  });
}

describe('createTaskHandler', () => {
  it('answers with what the router returns and publishes the metrics counted', async () => {
    // Prepare
    const runtime = runtimeWith();
    const handler = createTaskHandler(runtime, async (event) => {
      runtime.metrics.count('UpstreamPolls');
      return { echoed: event };
    });

    // Act
    const output = await handler({ action: 'poll' }, lambdaContext());

    // Assess
    expect(output).toEqual({ echoed: { action: 'poll' } });
    expect((runtime.metrics as InMemoryExportMetrics).published.get('UpstreamPolls')).toBe(1);
  });

  it('lets a workflow outcome propagate as it is, logged at INFO as the error asks', async () => {
    // Prepare
    const runtime = runtimeWith();
    const errors = vi.spyOn(runtime.logger, 'error');
    const infos = vi.spyOn(runtime.logger, 'info');
    const outcome = new ExportStillProcessingError('ex_1');

    // Act
    const thrown = await handlerThrowing(outcome, runtime)({ action: 'poll' }, lambdaContext()).catch(
      (error: unknown) => error,
    );

    // Assess
    expect(thrown).toBe(outcome);
    expect(errors).not.toHaveBeenCalled();
    expect(infos).toHaveBeenCalledWith('Task outcome', { outcome: 'ExportStillProcessing' });
  });

  it('logs a refused create at WARN and an unknown error at ERROR, and lets both propagate', async () => {
    // Prepare
    const runtime = runtimeWith();
    const warnings = vi.spyOn(runtime.logger, 'warn');
    const errors = vi.spyOn(runtime.logger, 'error');
    const refused = new ExportCreateRejectedError('ex_1', 'no');
    const unexpected = new Error('boom');

    // Act
    const thrown = [
      await handlerThrowing(refused, runtime)({ action: 'create' }, lambdaContext()).catch((error) => error),
      await handlerThrowing(unexpected, runtime)({ source: 'reconciler' }, lambdaContext()).catch(
        (error) => error,
      ),
    ];

    // Assess
    expect(thrown).toEqual([refused, unexpected]);
    expect(warnings).toHaveBeenCalledWith('Task failed; its caller decides what follows', { error: refused });
    expect(errors).toHaveBeenCalledWith('Task failed with an unexpected error', { error: unexpected });
  });

  it('answers no problem+json, even for an API-shaped event: it serves no route', async () => {
    // Prepare
    const busy = new SpotBusyError('sp_a', undefined);

    // Act
    const thrown = await handlerThrowing(busy)(apiEvent(), lambdaContext()).catch((error: unknown) => error);

    // Assess
    expect(thrown).toBe(busy);
  });
});
