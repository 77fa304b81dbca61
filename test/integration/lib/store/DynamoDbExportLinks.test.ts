import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  DynamoDbExportLinks,
  ExportLinksMissingError,
  INLINE_LINKS_MAX_BYTES,
  LINK_PAGE_MAX_BYTES,
  storedListBytes,
} from '../../../../lib/store/DynamoDbExportLinks';
import { exportRecordToItem } from '../../../../lib/store/exportItem';
import { ExportTableAttribute } from '../../../../lib/store/tableDefinition';
import { exportLinksPageKey, spotPartitionKey } from '../../../../lib/store/tableKeys';
import { captureError } from '../../../support/captureError';
import { useDynaliteTable } from '../../../support/dynaliteFixture';
import { exportRecordFixture } from '../../../support/exportRecordFixtures';

/** A download link of about 1 KB, as the upstream signs them. */
const link = (index: number) =>
  `https://exports.openweb.test/files/${index}.zip?signature=${String(index).padStart(1_000, 's')}`;
/** Enough links to need three pages. */
const MANY_LINKS = Array.from({ length: Math.ceil((2.5 * LINK_PAGE_MAX_BYTES) / 1_050) }, (_, index) =>
  link(index),
);

let links: DynamoDbExportLinks;
const dynalite = useDynaliteTable({ spotPrefix: 'sp_links' }, ({ tableOptions }) => {
  links = new DynamoDbExportLinks(tableOptions);
});

/** The link pages stored under an export (a query answers at most 1 MB at a time). */
async function pagesOf(spotId: string, exportId: string): Promise<Record<string, unknown>[]> {
  const pages: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await dynalite.table.documentClient.send(
      new QueryCommand({
        TableName: dynalite.table.tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: {
          '#pk': ExportTableAttribute.partitionKey,
          '#sk': ExportTableAttribute.sortKey,
        },
        ExpressionAttributeValues: { ':pk': spotPartitionKey(spotId), ':prefix': `LINKS#${exportId}#` },
        ExclusiveStartKey: startKey,
      }),
    );
    pages.push(...Items);
    startKey = LastEvaluatedKey;
  } while (startKey !== undefined);
  return pages;
}

/** The export item as the store writes it, with what `write` said about its links. */
async function storeItem(spotId: string, exportId: string, linkSet: readonly string[]) {
  const attributes = await links.write(spotId, exportId, linkSet);
  const item = {
    ...exportRecordToItem(exportRecordFixture({ spotId, exportId, links: [] })),
    ...attributes.set,
  };
  for (const removed of attributes.remove) delete item[removed];
  return { attributes, item };
}

describe('DynamoDbExportLinks (dynalite)', () => {
  it('keeps a set that fits in the export item itself, writing no page', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    const few = [link(1), link(2)];

    // Act
    const { attributes, item } = await storeItem(spotId, 'ex_few', few);

    // Assess
    expect(attributes).toEqual({ set: { links: few }, remove: ['linkCount', 'linkPages', 'linkSetId'] });
    expect(await pagesOf(spotId, 'ex_few')).toEqual([]);
    expect((await links.recordOf(item)).links).toEqual(few);
  });

  it('pages a set too big for the item, and reads it back whole and in order', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    expect(storedListBytes(MANY_LINKS)).toBeGreaterThan(INLINE_LINKS_MAX_BYTES);

    // Act
    const { attributes, item } = await storeItem(spotId, 'ex_many', MANY_LINKS);

    // Assess
    expect(attributes.set).toEqual({
      linkCount: MANY_LINKS.length,
      linkPages: 3,
      linkSetId: attributes.linkSetId,
    });
    expect(attributes.remove).toEqual(['links']);
    const pages = await pagesOf(spotId, 'ex_many');
    expect(pages).toHaveLength(3);
    for (const page of pages)
      expect(storedListBytes(page.links as string[])).toBeLessThanOrEqual(LINK_PAGE_MAX_BYTES);
    expect((await links.recordOf(item)).links).toEqual(MANY_LINKS);
  });

  it('writes the same pages again for the same set, and other pages for another set', async () => {
    // Prepare
    const spotId = dynalite.freshSpot();
    const first = await links.write(spotId, 'ex_again', MANY_LINKS);

    // Act
    const same = await links.write(spotId, 'ex_again', MANY_LINKS);
    const other = await links.write(spotId, 'ex_again', [...MANY_LINKS, link(99_999)]);

    // Assess
    expect(same.linkSetId).toBe(first.linkSetId);
    expect(other.linkSetId).not.toBe(first.linkSetId);
    expect(await pagesOf(spotId, 'ex_again')).toHaveLength(6);
  });

  it('removes the pages of a set no record names', async () => {
    // Prepare: a write that lost its race left its pages
    const spotId = dynalite.freshSpot();
    const lost = await links.write(spotId, 'ex_lost', MANY_LINKS);

    // Act
    await links.discard(spotId, 'ex_lost', lost.linkSetId as string, lost.set.linkPages as number);

    // Assess
    expect(await pagesOf(spotId, 'ex_lost')).toEqual([]);
  });

  it('refuses to read a paged set whose pages are not all there', async () => {
    // Prepare: a record naming three pages, one of them gone
    const spotId = dynalite.freshSpot();
    const { attributes, item } = await storeItem(spotId, 'ex_torn', MANY_LINKS);
    await dynalite.table.documentClient.send(
      new DeleteCommand({
        TableName: dynalite.table.tableName,
        Key: exportLinksPageKey(spotId, 'ex_torn', attributes.linkSetId as string, 1),
      }),
    );

    // Act
    const error = await captureError(links.recordOf(item));

    // Assess
    expect(error).toBeInstanceOf(ExportLinksMissingError);
  });
});
