import { describe, expect, it } from 'vitest';
import { LAKE_DATABASE_NAME_PATTERN } from '../../../../lib/lake/commentRowsTable';
import { lakeDatabaseNameFor } from '../../../../lib/lake/lakeDatabaseName';

describe('lakeDatabaseNameFor', () => {
  it("is the deployment's name in lower case, each run of other characters an underscore", () => {
    expect(lakeDatabaseNameFor('OpenWebExports')).toBe('openwebexports');
    expect(lakeDatabaseNameFor('OpenWebExports-staging')).toBe('openwebexports_staging');
    expect(lakeDatabaseNameFor('Shop-Stack-Exports')).toBe('shop_stack_exports');
    expect(lakeDatabaseNameFor('a--b..c')).toBe('a_b_c');
  });

  it('differs for two stacks of one account and region', () => {
    expect(lakeDatabaseNameFor('OpenWebExports')).not.toBe(lakeDatabaseNameFor('OpenWebExports-staging'));
  });

  it('always starts with a letter and is a name Athena reads', () => {
    for (const name of ['9lives', '-x-', '___', '', 'É', `A${'b'.repeat(300)}`, `a${'-'.repeat(300)}b`]) {
      const database = lakeDatabaseNameFor(name);
      expect(database).toMatch(/^[a-z]/);
      expect(database).toMatch(LAKE_DATABASE_NAME_PATTERN);
      expect(database.length).toBeLessThanOrEqual(255);
    }
    expect(lakeDatabaseNameFor('9lives')).toBe('openweb_exports_9lives');
    expect(lakeDatabaseNameFor('---')).toBe('openweb_exports');
  });
});
