/**
 * The last line of defence: an unexpected error is logged with its stack and answered 500 in
 * the app's body shape, never with the stack or any internals. Unknown routes get 404 in the
 * same shape.
 */

import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import type { Logger } from "../../core/ports.ts";
import type { ErrorBodyFormatter } from "./problem.ts";

export interface ErrorHandlerOptions {
  logger: Logger;
  formatError: ErrorBodyFormatter;
  /** The 500 reason the API documents. */
  reason: string;
}

export function errorHandler(options: ErrorHandlerOptions): ErrorHandler {
  const { logger, formatError, reason } = options;
  return function onError(error: Error, c: Context) {
    logger.error("Unhandled error while answering a request", {
      method: c.req.method,
      path: c.req.path,
      error: error.message,
      stack: error.stack,
    });
    return formatError(c, { status: 500, reason });
  };
}

export function notFoundHandler(formatError: ErrorBodyFormatter): NotFoundHandler {
  return function notFound(c) {
    return formatError(c, { status: 404, reason: "Not found" });
  };
}
