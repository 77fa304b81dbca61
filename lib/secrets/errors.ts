/** Base of every credentials error. Messages name the secret or file, never its value. */
export class CredentialsError extends Error {
  readonly spotId: string;

  constructor(message: string, spotId: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CredentialsError';
    this.spotId = spotId;
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
}

/** The credentials store could not be read (permissions, throttling, outage). */
export class CredentialsUnavailableError extends CredentialsError {
  constructor(spotId: string, source: string, options?: ErrorOptions) {
    super(`Credentials for spot ${spotId} could not be read from ${source}`, spotId, options);
    this.name = 'CredentialsUnavailableError';
  }
}
