import { ClassifiedError } from '../errors/ClassifiedError';
import { CREATE_REFUSED, type CreateFailure, createDeferred } from '../errors/CreateFailure';
import type { ProblemInit } from '../errors/ProblemInit';
import { ProblemType } from '../errors/ProblemType';
import { UpstreamWaitKind } from '../errors/UpstreamWaitKind';

/**
 * Base of every credentials error. Messages name the secret or file, never its value. Unusable
 * credentials refuse a create (nothing is sent without them) until the operator fixes them.
 */
export class CredentialsError extends ClassifiedError {
  readonly spotId: string;

  constructor(message: string, spotId: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CredentialsError';
    this.spotId = spotId;
  }

  get retryable(): boolean {
    return false;
  }

  get createFailure(): CreateFailure {
    return CREATE_REFUSED;
  }

  get problem(): ProblemInit | undefined {
    return undefined;
  }

  /** The message alone: it names the spot and where its credentials were looked for. */
  override get failureReason(): string {
    return this.message;
  }
}

/** No credentials are configured for the spot: a caller mistake or a missing setup step, not an outage. */
export class CredentialsNotFoundError extends CredentialsError {
  readonly source: string;

  constructor(spotId: string, source: string, options?: ErrorOptions) {
    super(`No credentials are configured for spot ${spotId} (looked in ${source})`, spotId, options);
    this.name = 'CredentialsNotFoundError';
    this.source = source;
  }

  // Where they were looked up is configuration the operator needs to fix it; no value is quoted.
  override get problem(): ProblemInit {
    return {
      status: 422,
      type: ProblemType.SPOT_NOT_CONFIGURED,
      title: 'Spot not configured',
      detail: `No OpenWeb credentials are configured for spot ${this.spotId}: looked in ${this.source}.`,
    };
  }
}

/** The stored credentials exist but do not have the expected shape. */
export class InvalidCredentialsError extends CredentialsError {
  readonly source: string;
  readonly problems: string[];

  constructor(spotId: string, source: string, problems: string[], options?: ErrorOptions) {
    super(`Credentials for spot ${spotId} in ${source} are invalid: ${problems.join('; ')}`, spotId, options);
    this.name = 'InvalidCredentialsError';
    this.source = source;
    this.problems = problems;
  }

  // The problems found are left out: they describe the secret's value.
  override get problem(): ProblemInit {
    return {
      status: 422,
      type: ProblemType.SPOT_NOT_CONFIGURED,
      title: 'Spot not configured',
      detail: `The OpenWeb credentials of spot ${this.spotId} in ${this.source} are not usable.`,
    };
  }
}

/** The credentials store could not be read (permissions, throttling, outage). */
export class CredentialsUnavailableError extends CredentialsError {
  constructor(spotId: string, source: string, options?: ErrorOptions) {
    super(`Credentials for spot ${spotId} could not be read from ${source}`, spotId, options);
    this.name = 'CredentialsUnavailableError';
  }

  override get retryable(): boolean {
    return true;
  }

  override get createFailure(): CreateFailure {
    return createDeferred(UpstreamWaitKind.UNAVAILABLE);
  }

  override get problem(): ProblemInit {
    return {
      status: 503,
      type: ProblemType.CREDENTIALS_UNAVAILABLE,
      title: 'Credentials unavailable',
      detail: "The spot's credentials could not be read; retry later.",
    };
  }
}
