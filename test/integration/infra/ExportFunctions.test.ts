import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerNames } from '../../../lib/http/routeTable';
import { removeTestAssemblies, type SynthesizedTestStack, synthesizeTestStack } from './synthesizeTestStack';
import { functionOf, resourcesGranting, statementsOfFunction } from './templateQueries';

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

    // Assess: the bucket itself, not its objects; another function lists only under a prefix of its own
    // (the archive's partition repair, the erasure's table check), never the exports' files.
    expect(listed).toEqual([expect.stringMatching(/^\{"Fn::GetAtt":\["ArchiveBucket[0-9A-F]+","Arn"\]\}$/)]);
    for (const handler of Object.values(HandlerNames).filter((name) => name !== HandlerNames.FILES)) {
      const listings = statementsOfFunction(keeping.template, handler).filter((statement) =>
        [statement.Action].flat().includes('s3:ListBucket'),
      );
      for (const listing of listings) {
        const prefixes = [listing.Condition?.StringLike?.['s3:prefix'] ?? []].flat();
        expect(prefixes.length, handler).toBeGreaterThan(0);
        for (const prefix of prefixes) expect(String(prefix), handler).not.toMatch(/^exports\//);
      }
    }
  });
});

describe('per-spot authorization in IAM mode', () => {
  const SPOTS_BY_PRINCIPAL = { 'arn:aws:iam::123456789012:role/exports-marketing': ['sp_marketing'] };

  it('gives every API function the map of roles to spots, and no function one when none is configured', () => {
    // Prepare
    const scoped = synthesizeTestStack({ auth: { mode: 'iam', spotsByPrincipal: SPOTS_BY_PRINCIPAL } });
    const plain = synthesizeTestStack({});
    const apiHandlers = [
      HandlerNames.START,
      HandlerNames.CHECK_STATUS,
      HandlerNames.ABORT,
      HandlerNames.LIST,
      HandlerNames.FILES,
    ];

    // Act
    const maps = apiHandlers.map((handler) => environmentOf(scoped, handler).AUTH_SPOTS_BY_PRINCIPAL);
    const none = Object.values(HandlerNames).map(
      (handler) => environmentOf(plain, handler).AUTH_SPOTS_BY_PRINCIPAL,
    );

    // Assess
    expect(maps.map((map) => JSON.parse(String(map)))).toEqual(apiHandlers.map(() => SPOTS_BY_PRINCIPAL));
    expect(none.every((map) => map === undefined)).toBe(true);
  });
});
