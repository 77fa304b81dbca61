import { ServiceError } from '../../errors/ClassifiedError';

/** A reconciler sweep in which some records failed for reasons that are not passing; the rest were repaired. */
export class ReconcileFailedError extends ServiceError {
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
