import { ServiceError } from '../../errors/ClassifiedError';

/** A schedule's `restate` ages that cannot be used; `problem` says why (see restatementAges.ts). */
export class InvalidRestatementAgesError extends ServiceError {
  override name = 'InvalidRestatementAgesError';
  readonly ages: readonly string[];
  readonly why: string;

  constructor(ages: readonly string[], problem: string, options?: ErrorOptions) {
    super(`Invalid restatement ages ${JSON.stringify(ages)}: ${problem}`, options);
    this.ages = ages;
    this.why = problem;
  }
}
