import { createHash } from 'node:crypto';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportRecord } from '../exports/record/ExportRecord';
import type { StoredItem } from './conditionalCheckFailure';
import { itemToExportRecord } from './exportItem';
import { ExportTableAttribute } from './tableDefinition';
import { EntityType, exportLinksPageKey, exportLinksPagePrefix, spotPartitionKey } from './tableKeys';

/**
 * DynamoDB refuses an item over 400 KB, and an export may have thousands of links of up to
 * 4 KB each. A link set whose stored size is at most this stays in the export's item, as
 * `links`; a bigger one goes to link pages (below), leaving room for the rest of the item.
 */
export const INLINE_LINKS_MAX_BYTES = 64 * 1024;
/** The most link bytes one page item holds; with its keys a page stays far below 400 KB. */
export const LINK_PAGE_MAX_BYTES = 256 * 1024;
/** Pages written at once; each is a single put of up to LINK_PAGE_MAX_BYTES. */
const PAGE_WRITE_CONCURRENCY = 8;

/** Export-item attributes of a link set kept in pages. */
export const LinkAttribute = {
  links: 'links',
  linkCount: 'linkCount',
  linkPages: 'linkPages',
  linkSetId: 'linkSetId',
} as const;

/** How a link set is kept on the export item: what to set, what to remove. */
export interface LinkItemAttributes {
  set: StoredItem;
  remove: string[];
  /** The pages written for it, when paged. */
  linkSetId?: string;
}

/** A page's links could not all be read back: the pages a record names are missing. */
export class ExportLinksMissingError extends Error {
  override name = 'ExportLinksMissingError';
}

/**
 * The links of an export. A small set is an attribute of the export's item; a set bigger
 * than INLINE_LINKS_MAX_BYTES is split into page items under the export's partition
 * (`LINKS#<exportId>#<linkSetId>#<n>`), written before the record update that names them
 * (`linkCount`, `linkPages`, `linkSetId`). The set id is a digest of the links, so writing
 * the same set again (a retried or racing poll) rewrites the same pages, and two different
 * sets never mix.
 */
export class DynamoDbExportLinks {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(options: { client: DynamoDBDocumentClient; tableName: string }) {
    this.#client = options.client;
    this.#tableName = options.tableName;
  }

  /** Stores the set where it fits; the answer is what the export item must say about it. */
  async write(spotId: string, exportId: string, links: readonly string[]): Promise<LinkItemAttributes> {
    if (storedListBytes(links) <= INLINE_LINKS_MAX_BYTES) {
      return {
        set: { [LinkAttribute.links]: [...links] },
        remove: [LinkAttribute.linkCount, LinkAttribute.linkPages, LinkAttribute.linkSetId],
      };
    }
    const linkSetId = linkSetIdOf(links);
    const pages = linkPagesOf(links);
    await inBatches(pages, PAGE_WRITE_CONCURRENCY, (page, index) =>
      this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: {
            ...exportLinksPageKey(spotId, exportId, linkSetId, index),
            entityType: EntityType.exportLinks,
            exportId,
            [LinkAttribute.links]: page,
          },
        }),
      ),
    );
    return {
      set: {
        [LinkAttribute.linkCount]: links.length,
        [LinkAttribute.linkPages]: pages.length,
        [LinkAttribute.linkSetId]: linkSetId,
      },
      remove: [LinkAttribute.links],
      linkSetId,
    };
  }

  /** The record an export item holds, its links read back from their pages when paged. */
  async recordOf(item: StoredItem): Promise<ExportRecord> {
    const record = itemToExportRecord(item);
    const pages = item[LinkAttribute.linkPages];
    if (typeof pages !== 'number' || pages === 0) return record;
    return { ...record, links: await this.#read(item, pages) };
  }

  /** Removes pages no record names, after a write that named them lost its race. */
  async discard(spotId: string, exportId: string, linkSetId: string, pageCount: number): Promise<void> {
    // One DeleteItem per page: the functions that record polls hold no batch-write grant.
    await inBatches(Array.from({ length: pageCount }), PAGE_WRITE_CONCURRENCY, (_, index) =>
      this.#client.send(
        new DeleteCommand({
          TableName: this.#tableName,
          Key: exportLinksPageKey(spotId, exportId, linkSetId, index),
        }),
      ),
    );
  }

  async #read(item: StoredItem, pageCount: number): Promise<string[]> {
    const spotId = String(item.spotId);
    const exportId = String(item.exportId);
    const linkSetId = String(item[LinkAttribute.linkSetId]);
    const links: string[] = [];
    let pagesRead = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const { Items = [], LastEvaluatedKey } = await this.#client.send(
        new QueryCommand({
          TableName: this.#tableName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: {
            '#pk': ExportTableAttribute.partitionKey,
            '#sk': ExportTableAttribute.sortKey,
          },
          ExpressionAttributeValues: {
            ':pk': spotPartitionKey(spotId),
            ':prefix': exportLinksPagePrefix(exportId, linkSetId),
          },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const page of Items) {
        links.push(...(page[LinkAttribute.links] as string[]));
        pagesRead += 1;
      }
      startKey = LastEvaluatedKey;
    } while (startKey !== undefined);
    if (pagesRead !== pageCount || links.length !== item[LinkAttribute.linkCount]) {
      throw new ExportLinksMissingError(
        `Export ${exportId} names ${pageCount} link pages with ${String(item[LinkAttribute.linkCount])} links; ${pagesRead} pages with ${links.length} links were found`,
      );
    }
    return links;
  }
}

/**
 * Bytes a list of strings adds to an item as DynamoDB counts them: 3 for the list, and per
 * element 1 plus its UTF-8 length.
 */
export function storedListBytes(values: readonly string[]): number {
  return values.reduce((bytes, value) => bytes + 1 + Buffer.byteLength(value, 'utf8'), 3);
}

/** The links cut, in order, into pages of at most LINK_PAGE_MAX_BYTES each (a single larger link gets a page of its own). */
function linkPagesOf(links: readonly string[]): string[][] {
  const pages: string[][] = [];
  let page: string[] = [];
  let bytes = 3;
  for (const link of links) {
    const linkBytes = 1 + Buffer.byteLength(link, 'utf8');
    if (page.length > 0 && bytes + linkBytes > LINK_PAGE_MAX_BYTES) {
      pages.push(page);
      page = [];
      bytes = 3;
    }
    page.push(link);
    bytes += linkBytes;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

function linkSetIdOf(links: readonly string[]): string {
  const hash = createHash('sha256');
  for (const link of links) hash.update(link).update('\n');
  return hash.digest('hex').slice(0, 16);
}

async function inBatches<T>(
  items: readonly T[],
  concurrency: number,
  run: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  for (let start = 0; start < items.length; start += concurrency) {
    await Promise.all(
      items.slice(start, start + concurrency).map((item, offset) => run(item, start + offset)),
    );
  }
}
