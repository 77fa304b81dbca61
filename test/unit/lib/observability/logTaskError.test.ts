import type { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it, vi } from 'vitest';
import {
  ExportCreateRejectedError,
  ExportStillProcessingError,
} from '../../../../lib/exports/workflow/errors';
import { logTaskError } from '../../../../lib/observability/logTaskError';

function recordingLogger() {
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  return { logger, asLogger: logger as unknown as Logger };
}

describe('logTaskError', () => {
  it('logs a routine outcome at INFO by its name only, without the error', () => {
    // Prepare
    const { logger, asLogger } = recordingLogger();

    // Act
    logTaskError(asLogger, new ExportStillProcessingError('ex_1'));

    // Assess
    expect(logger.info).toHaveBeenCalledWith('Task outcome', { outcome: 'ExportStillProcessing' });
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('logs an error that asks for it at WARN, with the error', () => {
    // Prepare
    const { logger, asLogger } = recordingLogger();
    const error = new ExportCreateRejectedError('ex_1', 'bad spot');

    // Act
    logTaskError(asLogger, error);

    // Assess
    expect(logger.warn).toHaveBeenCalledWith(expect.any(String), { error });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('logs an unclassified failure at ERROR, the level the alarm counts', () => {
    // Prepare
    const { logger, asLogger } = recordingLogger();
    const error = new TypeError('x is undefined');

    // Act
    logTaskError(asLogger, error);

    // Assess
    expect(logger.error).toHaveBeenCalledWith(expect.any(String), { error });
    expect(logger.info).not.toHaveBeenCalled();
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
