import { Fn, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * The UUID CloudFormation gives this instance of the stack (the last part of its stack id),
 * as a token: new each time the stack is created. Names that must not collide with what a
 * deleted instance left behind (retained log groups, a state machine still DELETING) carry it.
 */
export function stackInstanceId(scope: Construct): string {
  return Fn.select(2, Fn.split('/', Stack.of(scope).stackId));
}
