import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../../../lib/config';
import type { ExportDependencies } from '../../../../lib/exports/ExportDependencies';
import { SpotBusyError } from '../../../../lib/exports/queue/errors';
import {
  ExportCreateDeferredError,
  ExportCreateRejectedError,
  ExportPollingTimedOutError,
  ExportStillProcessingError,
  UpstreamUnavailableForWorkflowError,
} from '../../../../lib/exports/workflow/errors';
import { ProblemError } from '../../../../lib/http/ProblemError';
import { createHandler, type EventRouter } from '../../../../lib/runtime/createHandler';
import type { HandlerRuntime } from '../../../../lib/runtime/HandlerRuntime';
import { InMemoryExportMetrics } from '../../../../local/InMemoryExportMetrics';
import { apiEvent, lambdaContext, parseResponse, silentLogger } from '../../../support/apiGatewayEvents';

const SECRET_LOOKING_MESSAGE = 'connect ECONNREFUSED 10.0.0.7:5432 password=hunter2';

function runtimeWith(
  dependencies: () => ExportDependencies = () => ({}) as ExportDependencies,
): HandlerRuntime {
  return { logger: silentLogger(), metrics: new InMemoryExportMetrics(), dependencies };
}

function handlerThrowing(error: unknown, runtime = runtimeWith()) {
  const route: EventRouter = async () => {
    throw error;
  };
  return createHandler(runtime, route);
}

describe('problemResponses (through createExportHandler)', () => {
  it('answers an unknown error of an API request with a generic 500 that reveals nothing', async () => {
    // Prepare
    const error = new Error(SECRET_LOOKING_MESSAGE);
    const runtime = runtimeWith();
    const logged = vi.spyOn(runtime.logger, 'error');

    // Act
    const response = parseResponse(await handlerThrowing(error, runtime)(apiEvent(), lambdaContext()));

    // Assess
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: expect.any(String),
    });
    const text = JSON.stringify(response);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('ECONNREFUSED');
    expect(text).not.toContain('at ');
    expect(logged).toHaveBeenCalledWith(expect.any(String), { error });
  });

  it('answers 500 without details when the configuration is broken, and logs which variable', async () => {
    // Prepare
    const runtime = runtimeWith(() => {
      throw new ConfigError(['TABLE_NAME is required']);
    });
    const logged = vi.spyOn(runtime.logger, 'error');
    const handler = createHandler(runtime, async (_event, dependencies) => dependencies);

    // Act
    const response = parseResponse(await handler(apiEvent(), lambdaContext()));

    // Assess
    expect(response.statusCode).toBe(500);
    expect(JSON.stringify(response.body)).not.toContain('TABLE_NAME');
    expect(logged).toHaveBeenCalledWith(expect.any(String), { error: expect.any(ConfigError) });
  });

  it('renders a known error as its problem, with status in the body equal to the HTTP status', async () => {
    // Act
    const response = parseResponse(
      await handlerThrowing(
        new SpotBusyError('sp_a', {
          spotId: 'sp_a',
          exportId: 'ex_busy',
          acquiredAt: '2026-01-01T00:00:00.000Z',
          expiresAtEpochSeconds: 1,
        }),
      )(apiEvent(), lambdaContext()),
    );

    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toMatchObject({
      type: '/problems/spot-busy',
      status: 409,
      activeExportId: 'ex_busy',
    });
  });

  it('passes headers of a problem on, such as Retry-After', async () => {
    // Act
    const response = parseResponse(
      await handlerThrowing(
        new ProblemError({ type: 'upstream-rate-limited', wait: 'throttled', retryAfterMs: 7000 }),
      )(apiEvent(), lambdaContext()),
    );

    // Assess
    expect(response.headers['retry-after']).toBe('7');
  });

  it('lets errors of other event sources propagate as they are, for retries and Catch', async () => {
    // Prepare
    const error = Object.assign(new Error('still running'), { name: 'ExportStillProcessing' });

    // Act / Assess
    await expect(handlerThrowing(error)({ action: 'poll' }, lambdaContext())).rejects.toBe(error);
  });

  it('publishes the metrics counted, on success and on failure', async () => {
    // Prepare
    const runtime = runtimeWith();
    const counting = createHandler(runtime, async () => {
      runtime.metrics.count('UpstreamPolls');
      throw new Error('boom');
    });

    // Act
    await counting(apiEvent(), lambdaContext());

    // Assess
    expect((runtime.metrics as InMemoryExportMetrics).published.get('UpstreamPolls')).toBe(1);
  });

  describe('errors of workflow tasks, which propagate to the state machine', () => {
    it.each([
      new ExportStillProcessingError('ex_1'),
      new ExportCreateDeferredError('waits'),
      new UpstreamUnavailableForWorkflowError('down'),
      new ExportPollingTimedOutError('ex_1', '2026-01-01T00:00:00Z'),
    ])(
      'logs the control error %s at INFO, as the error asks, so an ERROR line always means an unexpected failure',
      async (control) => {
        // Prepare
        const runtime = runtimeWith();
        const errors = vi.spyOn(runtime.logger, 'error');
        const infos = vi.spyOn(runtime.logger, 'info');

        // Act
        const thrown = await handlerThrowing(control, runtime)({ action: 'poll' }, lambdaContext()).catch(
          (error: unknown) => error,
        );

        // Assess
        expect(thrown).toBe(control);
        expect(errors).not.toHaveBeenCalled();
        expect(infos).toHaveBeenCalledWith('Task outcome', { outcome: control.name });
      },
    );

    it('reads the level from the error, not its name: an unknown error named like a control error is an ERROR', async () => {
      // Prepare
      const runtime = runtimeWith();
      const errors = vi.spyOn(runtime.logger, 'error');
      const lookalike = Object.assign(new Error('?'), { name: 'ExportStillProcessing' });

      // Act
      await handlerThrowing(lookalike, runtime)({ action: 'poll' }, lambdaContext()).catch(() => undefined);

      // Assess
      expect(errors).toHaveBeenCalledWith('Task failed with an unexpected error', { error: lookalike });
    });

    it('logs a refused create at WARN and anything else at ERROR, and still lets it propagate', async () => {
      // Prepare
      const runtime = runtimeWith();
      const errors = vi.spyOn(runtime.logger, 'error');
      const warnings = vi.spyOn(runtime.logger, 'warn');
      const unexpected = new Error('AccessDeniedException: not authorized to perform states:StopExecution');

      // Act
      const refused = await handlerThrowing(new ExportCreateRejectedError('ex_1', 'no'), runtime)(
        { action: 'create' },
        lambdaContext(),
      ).catch((error: unknown) => error);
      const failed = await handlerThrowing(unexpected, runtime)(
        { source: 'reconciler' },
        lambdaContext(),
      ).catch((error: unknown) => error);

      // Assess
      expect((refused as Error).name).toBe('ExportCreateRejected');
      expect(failed).toBe(unexpected);
      expect(warnings).toHaveBeenCalledWith('Task failed; its caller decides what follows', {
        error: refused,
      });
      expect(errors).toHaveBeenCalledTimes(1);
      expect(errors).toHaveBeenCalledWith('Task failed with an unexpected error', { error: unexpected });
    });
  });
});
