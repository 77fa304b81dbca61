import { describe, expect, it } from 'vitest';
import type { CreateExportRequest } from '../../../../local/openweb-simulator/requestValidation';
import {
  CONVERSATION_COMMENTS_WINDOW_MS,
  SimulatedExportComments,
  selectionOf,
} from '../../../../local/openweb-simulator/SimulatedExportComments';
import type { SimulatedExport } from '../../../../local/openweb-simulator/SimulatedExports';
import { UpstreamComments } from '../../../../local/openweb-simulator/UpstreamComments';

const HOUR_MS = 60 * 60 * 1000;
const FROM = Date.parse('2026-11-25T00:00:00Z');
const COMMENTS_PER_HOUR = 40;

function upstream(deleteShare = 0): UpstreamComments {
  return new UpstreamComments({
    seed: 3,
    commentsPerHour: COMMENTS_PER_HOUR,
    usersPerSpot: 40,
    statusChangeShare: 0.3,
    editShare: 0.1,
    deleteShare,
    maxChangeDelaySeconds: 86_400,
    timeScale: 1,
  });
}

function simulatedExport(
  id: string,
  createdAt: number,
  request: Partial<CreateExportRequest> & Pick<CreateExportRequest, 'variant'> = {
    variant: 'dateRange',
    fromMs: FROM,
    untilMs: FROM + 5 * HOUR_MS,
  },
): SimulatedExport {
  return {
    id,
    spotId: 'sp_demo',
    sequence: 0,
    request: {},
    parsedRequest: { delimiter: ',', maxRecordsInFile: 50, ...request } as CreateExportRequest,
    createdAt,
    finishesAt: createdAt,
    state: 'completed',
    links: [],
  };
}

describe('SimulatedExportComments', () => {
  it('holds commentsPerHour for each hour of the window, in files of maxRecordsInFile, the last one partial', () => {
    // Prepare
    const contents = new SimulatedExportComments(upstream());
    const fiveHours = simulatedExport('exp_1', FROM + 10 * HOUR_MS);

    // Act
    const rows = contents.rowCount(fiveHours);
    const files = [1, 2, 3, 4, 5].map((file) => contents.fileRows(fiveHours, file));

    // Assess
    expect(rows).toBe(5 * COMMENTS_PER_HOUR);
    expect(contents.fileCount(fiveHours)).toBe(4);
    expect(files.map((file) => file?.length)).toEqual([50, 50, 50, 50, undefined]);
    const ids = files.flatMap((file) => (file ?? []).map((comment) => comment.id));
    expect(new Set(ids).size).toBe(rows);
  });

  it('gives two exports of the same window the same comments, each as it stood when that export was created', () => {
    // Prepare
    const contents = new SimulatedExportComments(upstream(0.2));
    // The window's last comments change during the hour after it ends.
    const first = simulatedExport('exp_1', FROM + 5 * HOUR_MS);
    const second = simulatedExport('exp_2', FROM + 5 * HOUR_MS + 24 * HOUR_MS);
    const allRows = (candidate: SimulatedExport) =>
      Array.from(
        { length: contents.fileCount(candidate) },
        (_, index) => contents.fileRows(candidate, index + 1) ?? [],
      ).flat();

    // Act
    const firstRows = allRows(first);
    const secondRows = allRows(second);
    const again = allRows(simulatedExport('exp_3', first.createdAt));

    // Assess
    expect(again).toEqual(firstRows);
    expect(secondRows.length).toBeLessThan(firstRows.length);
    const firstById = new Map(firstRows.map((comment) => [comment.id, comment]));
    expect(secondRows.every((comment) => firstById.has(comment.id))).toBe(true);
    const changed = secondRows.filter((comment) => {
      const before = firstById.get(comment.id);
      return before?.message_status !== comment.message_status || before?.content !== comment.content;
    });
    expect(changed.length).toBeGreaterThan(0);
  });

  it('gives an export with no comment in its window one header-only file', () => {
    // Prepare
    const contents = new SimulatedExportComments(upstream());
    // Created before its window: nothing is written yet.
    const early = simulatedExport('exp_1', FROM - HOUR_MS);

    // Act + Assess
    expect(contents.rowCount(early)).toBe(0);
    expect(contents.fileCount(early)).toBe(1);
    expect(contents.fileRows(early, 1)).toEqual([]);
    expect(contents.fileRows(early, 2)).toBeUndefined();
    expect(contents.fileRows(early, 0)).toBeUndefined();
  });

  it("selects a conversation's post over the week before the export was created", () => {
    // Prepare
    const createdAt = FROM + 3 * HOUR_MS;

    // Act
    const selection = selectionOf(
      simulatedExport('exp_1', createdAt, {
        variant: 'conversation',
        conversationId: 'sp_demo_post-2',
        postId: 'post-2',
      }),
    );

    // Assess
    expect(selection).toEqual({
      spotId: 'sp_demo',
      postId: 'post-2',
      fromMs: createdAt - CONVERSATION_COMMENTS_WINDOW_MS,
      untilMs: createdAt,
    });
  });
});
