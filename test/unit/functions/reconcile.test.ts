import { DescribeExecutionCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeReconcileHandler } from '../../../functions/reconcile';
import { UnrecognisedEventError } from '../../../lib/runtime/errors';
import { lambdaContext } from '../../support/apiGatewayEvents';
import {
  type MockedAwsRuntime,
  startAndCreateThroughHandlers,
  startMockedAwsRuntime,
} from './support/mockedAwsRuntime';

const MINUTE_MS = 60_000;

describe('reconcile handler', () => {
  let aws: MockedAwsRuntime;
  let handler: ReturnType<typeof makeReconcileHandler>;
  let exportId: string;

  beforeEach(async () => {
    aws = await startMockedAwsRuntime();
    handler = makeReconcileHandler(aws.runtime);
    exportId = await startAndCreateThroughHandlers(aws);
  });

  afterEach(async () => {
    await aws.close();
  });

  describe('as the scheduled reconciler', () => {
    it('restarts the workflow of a stale export whose execution is gone and reports a summary', async () => {
      // Prepare
      aws.clock.advance(20 * MINUTE_MS);
      aws.stepFunctions.resetHistory();

      // Act
      const summary = await handler({ source: 'reconciler' }, lambdaContext());

      // Assess
      expect(summary).toEqual({
        examined: 1,
        finished: 0,
        workflowsRestarted: 1,
        queuedStarted: 0,
        archivesRestarted: 0,
        windowsAdvanced: 0,
        backfillsFinished: 0,
        legacyArchivesIndexed: 0,
        staleSpots: 0,
        failures: 0,
      });
      expect(aws.stepFunctions).toHaveReceivedCommandWith(DescribeExecutionCommand, {
        executionArn: expect.stringMatching(new RegExp(`:execution:ExportPolling:${exportId}$`)),
      });
      expect(aws.stepFunctions).toHaveReceivedCommandWith(StartExecutionCommand, { name: `${exportId}-r1` });
    });
  });

  it('throws UnrecognisedEventError for an event of no known source', async () => {
    // Act / Assess
    await expect(handler({ action: 'dance' }, lambdaContext())).rejects.toBeInstanceOf(
      UnrecognisedEventError,
    );
  });
});
