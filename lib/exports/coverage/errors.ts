import { ServiceError } from '../../errors/ClassifiedError';

/**
 * More windows of a spot overlap one instant than a coverage page may read, so no page can end
 * after that instant. Windows are at most 730 hours long and the ledger keeps one per range, so
 * only thousands of exports of distinct ranges around one hour get here.
 */
export class CoverageTooDenseError extends ServiceError {
  override name = 'CoverageTooDenseError';
  readonly spotId: string;
  readonly at: string;

  constructor(spotId: string, at: string, windowsRead: number, options?: ErrorOptions) {
    super(`More than ${windowsRead} windows of spot ${spotId} overlap ${at}`, options);
    this.spotId = spotId;
    this.at = at;
  }
}
