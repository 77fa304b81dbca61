import { describe, expect, it } from 'vitest';
import { schemaOnFirstUse } from '../../../../../lib/exports/record/schemaOnFirstUse';

describe('schemaOnFirstUse', () => {
  it('builds nothing until first used, then builds once and answers the same schema', () => {
    // Prepare
    let builds = 0;
    const schema = schemaOnFirstUse(() => {
      builds += 1;
      return { built: builds };
    });

    // Act
    const before = builds;
    const first = schema();
    const second = schema();

    // Assess
    expect(before).toBe(0);
    expect(first).toEqual({ built: 1 });
    expect(second).toBe(first);
    expect(builds).toBe(1);
  });
});
