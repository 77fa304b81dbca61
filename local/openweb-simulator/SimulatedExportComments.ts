import { countFiles } from './commentsArchive';
import type { SimulatedExport } from './SimulatedExports';
import type { SimulatedComment } from './simulatedComments';
import type { CommentSelection, HourCount, UpstreamComments } from './UpstreamComments';

/** Conversation exports hold comments written during the week before the export was created. */
export const CONVERSATION_COMMENTS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Hour counts kept for the exports downloaded last: enough for every export a test or a demo has in flight. */
const CACHED_EXPORTS = 256;

/**
 * What each export holds: the comments of its window (or its conversation's week) as they stood
 * when it was created. Counted once when it completes (its number of files), then served a file
 * at a time: a download draws its own rows and at most one partial hour before them.
 */
export class SimulatedExportComments {
  readonly #hourCounts = new Map<string, HourCount[]>();

  constructor(private readonly comments: UpstreamComments) {}

  rowCount(simulatedExport: SimulatedExport): number {
    return this.#countsOf(simulatedExport).reduce((sum, hour) => sum + hour.count, 0);
  }

  fileCount(simulatedExport: SimulatedExport): number {
    return countFiles(this.rowCount(simulatedExport), simulatedExport.parsedRequest.maxRecordsInFile);
  }

  /** The rows of file `fileNumber` (from 1): header-only for an empty export's one file; undefined past the last. */
  fileRows(simulatedExport: SimulatedExport, fileNumber: number): SimulatedComment[] | undefined {
    if (!Number.isInteger(fileNumber) || fileNumber < 1 || fileNumber > this.fileCount(simulatedExport)) {
      return undefined;
    }
    const { maxRecordsInFile } = simulatedExport.parsedRequest;
    return this.comments.commentsAsOf(
      selectionOf(simulatedExport),
      simulatedExport.createdAt,
      { offset: (fileNumber - 1) * maxRecordsInFile, limit: maxRecordsInFile },
      this.#countsOf(simulatedExport),
    );
  }

  #countsOf(simulatedExport: SimulatedExport): HourCount[] {
    let counts = this.#hourCounts.get(simulatedExport.id);
    if (counts === undefined) {
      counts = this.comments.hourCountsAsOf(selectionOf(simulatedExport), simulatedExport.createdAt);
      this.#hourCounts.set(simulatedExport.id, counts);
      const oldest = this.#hourCounts.keys().next().value;
      if (this.#hourCounts.size > CACHED_EXPORTS && oldest !== undefined) this.#hourCounts.delete(oldest);
    }
    return counts;
  }
}

/** A date-range export's window, or a conversation's post over the week before its creation. */
export function selectionOf(simulatedExport: SimulatedExport): CommentSelection {
  const request = simulatedExport.parsedRequest;
  return request.variant === 'dateRange'
    ? { spotId: simulatedExport.spotId, fromMs: request.fromMs, untilMs: request.untilMs }
    : {
        spotId: simulatedExport.spotId,
        postId: request.postId,
        fromMs: simulatedExport.createdAt - CONVERSATION_COMMENTS_WINDOW_MS,
        untilMs: simulatedExport.createdAt,
      };
}
