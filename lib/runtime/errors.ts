/** An event no source of this handler produces. Thrown, never answered, so it surfaces where it was sent from. */
export class UnrecognisedEventError extends Error {
  override name = 'UnrecognisedEventError';
  readonly handlerName: string;

  constructor(handlerName: string) {
    // The event itself is left out: it may carry anything.
    super(`The ${handlerName} handler received an event of no source it serves`);
    this.handlerName = handlerName;
  }
}
