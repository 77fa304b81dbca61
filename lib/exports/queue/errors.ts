import { ServiceError } from '../../errors/ClassifiedError';
import { type ProblemInit, ProblemType } from '../../errors/problems';
import type { SpotLock } from './SpotLock';

/** Another export holds the spot. `activeExportId` is undefined only if the holder kept changing while we looked. */
export class SpotBusyError extends ServiceError {
  override name = 'SpotBusyError';
  readonly spotId: string;
  readonly activeExportId: string | undefined;
  readonly lock: SpotLock | undefined;

  constructor(spotId: string, lock: SpotLock | undefined, options?: ErrorOptions) {
    super(`Spot ${spotId} is busy with export ${lock?.exportId ?? '(changing holder)'}`, options);
    this.spotId = spotId;
    this.activeExportId = lock?.exportId;
    this.lock = lock;
  }

  override get problem(): ProblemInit {
    return {
      status: 409,
      type: ProblemType.SPOT_BUSY,
      title: 'Spot busy',
      detail: 'Another export of this spot is in progress; the upstream runs one at a time.',
      ...(this.activeExportId !== undefined && { extensions: { activeExportId: this.activeExportId } }),
    };
  }
}
