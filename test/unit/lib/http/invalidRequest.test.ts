import { describe, expect, it } from 'vitest';
import { exportRequestSchema } from '../../../../lib/exports/requests/exportRequestSchema';
import { fieldProblemsOf } from '../../../../lib/http/invalidRequest';

const SPOT = 'sp_demo';

function problemsFor(body: unknown) {
  const parsed = exportRequestSchema(SPOT).safeParse(body);
  if (parsed.success) throw new Error('expected the body to be invalid');
  return fieldProblemsOf(parsed.error, 'body');
}

describe('fieldProblemsOf', () => {
  it('reports the problems of the kind of request the body is meant as', () => {
    // Act
    const dateRange = problemsFor({ from: 'yesterday' });
    const conversation = problemsFor({ conversationId: `${SPOT}_1`, delimiter: 'x' });

    // Assess
    expect(dateRange.map((problem) => problem.field)).toEqual(['body.from', 'body.until']);
    expect(conversation).toEqual([{ field: 'body.delimiter', message: 'must be one of , ; | or a tab' }]);
  });

  it('names unknown fields when their names are plain, and never repeats other names', () => {
    // Act
    const problems = problemsFor({
      from: '2026-01-01T00:00:00Z',
      until: '2026-01-02T00:00:00Z',
      colour: 'red',
      '<script>alert(1)</script>': 1,
    });

    // Assess
    expect(problems).toEqual([
      { field: 'body.colour', message: 'is not a known field' },
      { field: 'body', message: 'has a field that is not known' },
    ]);
  });

  it('reports a body that is not an object at the body itself', () => {
    // Act / Assess
    expect(problemsFor([1, 2])).toEqual([{ field: 'body', message: 'the body must be a JSON object' }]);
  });

  it('never quotes the values sent', () => {
    // Act
    const problems = problemsFor({ from: 'apikey-hunter2', until: 'hunter2', maxRecordsInFile: 'hunter2' });

    // Assess
    expect(JSON.stringify(problems)).not.toContain('hunter2');
  });
});
