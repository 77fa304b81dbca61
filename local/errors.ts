/** Base of the local runtime's own errors. */
export class LocalRuntimeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'LocalRuntimeError';
  }
}

/** The local runtime's environment is wrong; `problems` name each bad variable. */
export class LocalRuntimeConfigError extends LocalRuntimeError {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid local runtime configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'LocalRuntimeConfigError';
    this.problems = problems;
  }
}

/** A schedule expression the local runtime cannot run. */
export class ScheduleExpressionError extends LocalRuntimeError {
  readonly expression: string;

  constructor(expression: string, reason: string) {
    super(`${expression}: ${reason}`);
    this.name = 'ScheduleExpressionError';
    this.expression = expression;
  }
}

/** No schedule of that name is configured. */
export class UnknownScheduleError extends LocalRuntimeError {
  readonly scheduleName: string;

  constructor(scheduleName: string) {
    super(`No schedule named ${scheduleName}`);
    this.name = 'UnknownScheduleError';
    this.scheduleName = scheduleName;
  }
}

/** Work refused because the runtime is shutting down. */
export class LocalRuntimeStoppingError extends LocalRuntimeError {
  constructor() {
    super('The local runtime is stopping');
    this.name = 'LocalRuntimeStoppingError';
  }
}

/**
 * Another local runtime holds what this one needs (a port, the data folder); `problems` has one
 * line for each, saying which setting picks another.
 */
export class LocalRuntimeInUseError extends LocalRuntimeError {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.name = 'LocalRuntimeInUseError';
    this.problems = problems;
  }
}

/** An erasure route called on a local runtime that archives nothing (there is nothing to erase from). */
export class LocalArchiveOffError extends LocalRuntimeError {
  constructor() {
    super('Erasures need the local archive: this runtime archives nothing');
    this.name = 'LocalArchiveOffError';
  }
}
