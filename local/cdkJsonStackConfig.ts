import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_CONFIG_CONTEXT_KEY } from '../infra/stackConfig';

/**
 * `context.openwebExports` of the project's cdk.json, the configuration `cdk deploy` uses,
 * read without loading the CDK (which takes seconds). Undefined when cdk.json has none.
 */
export function cdkJsonStackConfig(projectRoot: string): unknown {
  const cdkJson = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context?.[STACK_CONFIG_CONTEXT_KEY];
}
