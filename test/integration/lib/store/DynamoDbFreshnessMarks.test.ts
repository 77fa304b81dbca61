import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbFreshnessMarks } from '../../../../lib/store/DynamoDbFreshnessMarks';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';

const mark = (spotId: string, checkAt?: string) => ({
  spotId,
  stale: false,
  since: '2026-12-01T00:00:00.000Z',
  coveredUntil: '2026-12-01T00:00:00Z',
  ...(checkAt !== undefined && { checkAt }),
});

describe('DynamoDbFreshnessMarks on dynalite', () => {
  let table: DynaliteTable;
  let marks: DynamoDbFreshnessMarks;

  beforeEach(async () => {
    table = await startDynaliteTable();
    marks = new DynamoDbFreshnessMarks({ client: table.documentClient, tableName: table.tableName });
  });

  afterEach(async () => {
    await table.close();
  });

  it('answers the marks due before an instant, soonest first and at most the limit, and leaves out those without a next measurement', async () => {
    // Prepare
    await marks.change(mark('sp_late', '2026-12-01T05:00:00.000Z'), undefined);
    await marks.change(mark('sp_soon', '2026-12-01T01:00:00.000Z'), undefined);
    await marks.change(mark('sp_sooner', '2026-12-01T00:30:00.000Z'), undefined);
    await marks.change(mark('sp_unwatched'), undefined);

    // Act
    const due = await marks.due('2026-12-01T02:00:00.000Z', 10);
    const first = await marks.due('2026-12-01T02:00:00.000Z', 1);

    // Assess
    expect(due.map((each) => each.spotId)).toEqual(['sp_sooner', 'sp_soon']);
    expect(due[1]).toEqual(mark('sp_soon', '2026-12-01T01:00:00.000Z'));
    expect(first.map((each) => each.spotId)).toEqual(['sp_sooner']);
  });

  it('takes a mark out of the due ones when it is written without a next measurement', async () => {
    // Prepare
    await marks.change(mark('sp_dropped', '2026-12-01T01:00:00.000Z'), undefined);

    // Act
    const written = await marks.change(mark('sp_dropped'), false);

    // Assess
    expect(written).toBe(true);
    expect(await marks.due('2026-12-02T00:00:00.000Z', 10)).toEqual([]);
    expect(await marks.get('sp_dropped')).toEqual(mark('sp_dropped'));
  });

  it('tells which spots have no mark yet, and asks the table once about a marked spot', async () => {
    // Prepare: 150 spots, every third one marked by another instance
    const spotIds = Array.from({ length: 150 }, (_, index) => `sp_${index}`);
    const other = new DynamoDbFreshnessMarks({ client: table.documentClient, tableName: table.tableName });
    for (const spotId of spotIds.filter((_, index) => index % 3 === 0))
      await other.change(mark(spotId), undefined);

    // Act
    const unmarked = await marks.unmarked(spotIds);
    await table.close();
    const again = await marks.unmarked(spotIds.filter((_, index) => index % 3 === 0));

    // Assess: the second answer needs no table (it is closed)
    expect(unmarked).toEqual(spotIds.filter((_, index) => index % 3 !== 0));
    expect(again).toEqual([]);
    table = await startDynaliteTable();
  });
});
