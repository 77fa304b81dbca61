import { makeAbortHandler } from '../functions/abort';
import { makeCheckStatusHandler } from '../functions/check-status';
import { makeListHandler } from '../functions/list';
import { makeStartHandler } from '../functions/start';
import { type HandlerName, HandlerNames } from '../lib/http/routeTable';
import type { ExportHandler } from '../lib/runtime/createExportHandler';
import type { HandlerRuntime } from '../lib/runtime/HandlerRuntime';
import { localLambdaContext } from './localLambdaContext';

export type LocalHandlers = Record<HandlerName, ExportHandler>;

/** The deployed handlers, built around a local runtime's dependencies. */
export function localHandlers(runtime: HandlerRuntime): LocalHandlers {
  return {
    [HandlerNames.START]: makeStartHandler(runtime),
    [HandlerNames.CHECK_STATUS]: makeCheckStatusHandler(runtime),
    [HandlerNames.ABORT]: makeAbortHandler(runtime),
    [HandlerNames.LIST]: makeListHandler(runtime),
  };
}

/** Invokes a handler as Lambda would: the event and a fresh context. */
export function invokeLocalHandler(
  handlers: LocalHandlers,
  handler: HandlerName,
  event: unknown,
): Promise<unknown> {
  return handlers[handler](event, localLambdaContext(handler));
}
