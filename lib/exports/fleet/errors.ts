import { ServiceError } from '../../errors/ClassifiedError';
import { type Problem, ProblemType } from '../../errors/problems';

/**
 * A spot the deployment does not know (or the caller may not see): not configured, no export
 * running or queued. Said as such, with the nearest known spot, rather than answered as a spot
 * where nothing happened.
 */
export class UnknownSpotError extends ServiceError {
  override name = 'UnknownSpotError';
  readonly spotId: string;
  readonly suggestion: string | undefined;

  constructor(spotId: string, suggestion: string | undefined, options?: ErrorOptions) {
    super(
      `Spot ${spotId} is unknown${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}`,
      options,
    );
    this.spotId = spotId;
    this.suggestion = suggestion;
  }

  override get problem(): Problem {
    return { type: ProblemType.SPOT_NOT_FOUND, spotId: this.spotId, suggestion: this.suggestion };
  }
}
