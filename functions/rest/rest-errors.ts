/**
 * The REST API's error answers: `{statusCode, error, message}` with the reason
 * phrase as `error`, and the one place where typed errors from core become HTTP statuses.
 * Errors not listed here (store I/O failures, bugs) reach the app's onError: 500 without internals.
 */
import type { Context } from "hono";
import { InvalidDigitError } from "../../core/base-conversion/base-conversion.ts";
import {
  FilePermissionError,
  InvalidPathError,
  PathNotApprovedError,
  SourceNotFoundError,
  TargetExistsError,
} from "../../core/files/errors.ts";
import { KeyLimitExceededError, StoreLimitExceededError } from "../../core/kv/errors.ts";
import { InvalidTopicError } from "../../core/messaging/errors.ts";
import { AppNotFoundError, PlatformError } from "../../core/platform/errors.ts";
import { TaskStartRefusedError } from "../../core/platform/start-reload-tasks.ts";
import { ScheduleNotFoundError } from "../../core/schedules/index.ts";
import { InvalidScheduleError } from "../../core/shared/invalid-schedule-error.ts";
import { StoreUnavailableError } from "../../core/store-unavailable-error.ts";
import { FeatureDisabledError, UpstreamError } from "../../core/upstream-error.ts";
import type { HttpProblem } from "../http/problem.ts";
import { respondJson } from "../http/response-headers.ts";

export const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  507: "Insufficient Storage",
};

/** Request members that fail their schema (400). */
export class RequestValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RequestValidationError";
  }
}

/** A namespace or key that does not exist (404). */
export class ResourceNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResourceNotFoundError";
  }
}

export function formatRestError(c: Context, problem: HttpProblem): Response {
  const statusCode = problem.status;
  // respondJson carries the headers the middleware recorded (security, CORS, rate limit).
  return respondJson(
    c,
    { statusCode, error: REASON_PHRASES[statusCode] ?? "Error", message: problem.reason },
    statusCode,
  );
}

const BY_STATUS: readonly [HttpProblem["status"], readonly (abstract new (...args: never[]) => Error)[]][] = [
  [
    400,
    [
      RequestValidationError,
      InvalidDigitError,
      KeyLimitExceededError,
      InvalidScheduleError,
      InvalidPathError,
      InvalidTopicError,
    ],
  ],
  [403, [PathNotApprovedError, FilePermissionError, TaskStartRefusedError]],
  [404, [ResourceNotFoundError, ScheduleNotFoundError, SourceNotFoundError, AppNotFoundError]],
  [409, [TargetExistsError]],
  // AppNotFoundError is a PlatformError too: the 404 entry above is checked first.
  [502, [UpstreamError, PlatformError]],
  [503, [FeatureDisabledError, StoreUnavailableError]],
  [507, [StoreLimitExceededError]],
];

/** The `Retry-After` (seconds) a known error's answer carries, if any. */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof StoreUnavailableError ? error.retryAfterSeconds : undefined;
}

/** The HTTP problem for a known error, or undefined (→ 500 by the app's error handler). */
export function problemOf(error: unknown): HttpProblem | undefined {
  if (!(error instanceof Error)) return undefined;
  for (const [status, classes] of BY_STATUS) {
    if (classes.some((errorClass) => error instanceof errorClass)) return { status, reason: error.message };
  }
  return undefined;
}
