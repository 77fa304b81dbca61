import { ServiceError } from '../../errors/ClassifiedError';
import { type Problem, ProblemType } from '../../errors/problems';
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

  override get problem(): Problem {
    return { type: ProblemType.SPOT_BUSY, activeExportId: this.activeExportId };
  }
}
