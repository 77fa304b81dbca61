import type { HandlerName } from '../lib/http/routeTable';
import { settleWithin } from './closers';
import { LocalRuntimeError } from './errors';
import { invokeLocalHandler, type LocalHandlers } from './localHandlers';

/**
 * The handler invocations of a local runtime, tracked so stop() can let those in progress
 * finish. The handlers are set once built: they need the workflows (through their
 * dependencies), and the workflows invoke the handlers.
 */
export class LocalInvocations {
  #handlers: LocalHandlers | undefined;
  readonly #inProgress = new Set<Promise<unknown>>();

  set handlers(handlers: LocalHandlers) {
    this.#handlers = handlers;
  }

  /** Invokes a handler as Lambda would. */
  readonly invoke = (handler: HandlerName, event: unknown): Promise<unknown> => {
    if (this.#handlers === undefined)
      return Promise.reject(new LocalRuntimeError('The handlers are not built yet'));
    return this.track(invokeLocalHandler(this.#handlers, handler, event));
  };

  /** Counts the work as in progress until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#inProgress.add(work);
    const done = () => this.#inProgress.delete(work);
    work.then(done, done);
    return work;
  }

  /** Waits for the work in progress to settle, at most `timeoutMs`. */
  settle(timeoutMs: number): Promise<void> {
    return settleWithin([...this.#inProgress], timeoutMs);
  }
}
