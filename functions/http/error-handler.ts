/**
 * The last line of defence: an unexpected error is logged with its stack and answered 500 in
 * the app's body shape, never with the stack or any internals. Unknown routes get 404 in the
 * same shape.
 */

import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import type { Logger } from "../../core/ports.ts";
import type { ErrorBodyFormatter, HttpProblem } from "./problem.ts";

export const NOT_FOUND: HttpProblem = { status: 404, reason: "Not found" };

/** Logs an error nothing else handled, with its stack (logs only; answers never carry it). */
export function logUnhandledError(logger: Logger, method: string, path: string, error: unknown): void {
  logger.error("Unhandled error while answering a request", {
    method,
    path,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
}

export interface ErrorHandlerOptions {
  logger: Logger;
  formatError: ErrorBodyFormatter;
  /** The 500 reason the API documents. */
  reason: string;
}

export function errorHandler(options: ErrorHandlerOptions): ErrorHandler {
  const { logger, formatError, reason } = options;
  return function onError(error: Error, c: Context) {
    logUnhandledError(logger, c.req.method, c.req.path, error);
    return formatError(c, { status: 500, reason });
  };
}

export function notFoundHandler(formatError: ErrorBodyFormatter): NotFoundHandler {
  return function notFound(c) {
    return formatError(c, NOT_FOUND);
  };
}
