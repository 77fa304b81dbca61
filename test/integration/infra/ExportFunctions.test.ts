import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerNames } from '../../../lib/http/routeTable';
import {
  removeTestAssemblies,
  type SynthesizedTestStack,
  synthesizeTestStack,
} from '../../infra/synthesizeTestStack';
import { functionOf, resourcesGranting, statementsOfFunction } from '../../infra/templateQueries';

afterAll(() => {
  removeTestAssemblies();
});

function environmentOf(
  stack: SynthesizedTestStack,
  handler: (typeof HandlerNames)[keyof typeof HandlerNames],
) {
  return (
    functionOf(stack.template, handler)[1].Properties.Environment as { Variables: Record<string, unknown> }
  ).Variables;
}

describe('the files function and the archive’s lifecycle', () => {
  let expiring: SynthesizedTestStack;
  let keeping: SynthesizedTestStack;

  beforeAll(() => {
    expiring = synthesizeTestStack({ archive: { infrequentAccessAfterDays: null, expireAfterDays: 30 } });
    keeping = synthesizeTestStack({});
  });

  it('knows after how many days the lifecycle rule deletes archived files, when it does', () => {
    // Act
    const days = [expiring, keeping].map(
      (stack) => environmentOf(stack, HandlerNames.FILES).ARCHIVE_EXPIRE_AFTER_DAYS,
    );

    // Assess
    expect(days).toEqual(['30', undefined]);
  });

  it('may list the bucket, so S3 answers 404 rather than 403 for a file that is gone', () => {
    // Act
    const listed = resourcesGranting(
      statementsOfFunction(keeping.template, HandlerNames.FILES),
      's3:ListBucket',
    );

    // Assess: the bucket itself, not its objects; no other function may list it.
    expect(listed).toEqual([expect.stringMatching(/^\{"Fn::GetAtt":\["ArchiveBucket[0-9A-F]+","Arn"\]\}$/)]);
    for (const handler of Object.values(HandlerNames).filter((name) => name !== HandlerNames.FILES)) {
      expect(
        resourcesGranting(statementsOfFunction(keeping.template, handler), 's3:ListBucket'),
        handler,
      ).toEqual([]);
    }
  });
});
