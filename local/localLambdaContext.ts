import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** Local runs have no deadline from Lambda; this is what `getRemainingTimeInMillis` reports. */
export const LOCAL_INVOCATION_TIMEOUT_MS = 60_000;

/** The Lambda context a handler gets when it runs on this machine, one per invocation. */
export function localLambdaContext(functionName: string): Context {
  const startedAtMs = Date.now();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/local/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, startedAtMs + LOCAL_INVOCATION_TIMEOUT_MS - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
