/** Base of every error the simulator raises on purpose. */
export class OpenWebSimulatorError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Ends the handling of one request with this HTTP status and a JSON `{ message }` body. */
export class SimulatedHttpError extends OpenWebSimulatorError {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The spot already has an export in progress (the upstream allows one at a time per spot). */
export class SpotExportInProgressError extends OpenWebSimulatorError {
  constructor(
    readonly spotId: string,
    readonly exportId: string,
  ) {
    super(`Spot ${spotId} already has export ${exportId} in progress`);
  }
}

export class UnknownSimulatedExportError extends OpenWebSimulatorError {
  constructor(readonly exportId: string) {
    super(`No simulated export with id ${exportId}`);
  }
}

/** The export has already reached a terminal state, which never changes. */
export class SimulatedExportFinishedError extends OpenWebSimulatorError {
  constructor(
    readonly exportId: string,
    readonly state: string,
  ) {
    super(`Simulated export ${exportId} is already ${state}`);
  }
}

export class InvalidSimulatorFaultsError extends OpenWebSimulatorError {}

/** The state file given to the simulator exists but cannot be used. */
export class InvalidSimulatorStateError extends OpenWebSimulatorError {
  constructor(
    readonly path: string,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(`Simulator state file ${path} cannot be used: ${reason}`, options);
  }
}
