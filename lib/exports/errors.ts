import type { ProblemInit } from '../errors/ProblemInit';
import { ProblemType } from '../errors/ProblemType';
import { ServiceError } from '../errors/ServiceError';
import type { ExportRecord } from './ExportRecord';
import type { ExportStatus } from './ExportStatus';

/** Base of the export domain's errors. */
export class ExportDomainError extends ServiceError {
  override name = 'ExportDomainError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** Another writer changed the export first: a lost race, the caller reads again. */
export function exportChangedConcurrentlyProblem(): ProblemInit {
  return {
    status: 409,
    type: ProblemType.EXPORT_CHANGED_CONCURRENTLY,
    title: 'Export changed concurrently',
    detail: 'The export changed while this request was handled; read it again and retry if still needed.',
  };
}

/**
 * A status change the lifecycle does not allow. `current` is the stored record
 * when the refusal came from the store, so the caller can see who won.
 */
export class IllegalTransitionError extends ExportDomainError {
  override name = 'IllegalTransitionError';
  readonly from: ExportStatus;
  readonly to: ExportStatus;
  readonly exportId: string;
  readonly current: ExportRecord | undefined;

  constructor(
    details: { from: ExportStatus; to: ExportStatus; exportId: string; current?: ExportRecord },
    options?: ErrorOptions,
  ) {
    super(`Export ${details.exportId} cannot go from ${details.from} to ${details.to}`, options);
    this.from = details.from;
    this.to = details.to;
    this.exportId = details.exportId;
    this.current = details.current;
  }

  override get problem(): ProblemInit {
    return exportChangedConcurrentlyProblem();
  }
}

/** Abort asked of an export that already completed or failed: the first conditional write won. */
export class ExportAlreadyFinishedError extends ExportDomainError {
  override name = 'ExportAlreadyFinishedError';
  readonly current: ExportRecord;

  constructor(current: ExportRecord, options?: ErrorOptions) {
    super(`Export ${current.exportId} already finished with status ${current.status}`, options);
    this.current = current;
  }

  override get problem(): ProblemInit {
    return {
      status: 409,
      type: ProblemType.EXPORT_ALREADY_FINISHED,
      title: 'Export already finished',
      detail: `The export finished with status ${this.current.status} and can no longer be aborted.`,
      extensions: { exportId: this.current.exportId, exportStatus: this.current.status },
    };
  }
}

/** A reconciler sweep in which some records failed for reasons that are not passing; the rest were repaired. */
export class ReconcileFailedError extends ExportDomainError {
  override name = 'ReconcileFailedError';
  readonly summary: { examined: number; finished: number; workflowsRestarted: number; failures: number };
  readonly failedExportIds: string[];

  constructor(
    summary: ReconcileFailedError['summary'],
    failures: readonly { exportId: string; error: unknown }[],
  ) {
    const reasons = failures.map(
      ({ exportId, error }) => `${exportId}: ${error instanceof Error ? error.name : 'unknown'}`,
    );
    super(`The reconciler could not repair ${failures.length} export(s): ${reasons.join(', ')}`, {
      cause: failures[0]?.error,
    });
    this.summary = summary;
    this.failedExportIds = failures.map(({ exportId }) => exportId);
  }
}
