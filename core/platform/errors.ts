/**
 * Errors of the platform integration. Adapters throw them; the edge maps them to HTTP answers
 * (PlatformError → 502 with the message as reason, AppNotFoundError → 404). Messages name hosts,
 * ports, methods and status codes, never certificate or key material.
 */

/** Base class: the platform failed, refused or could not be reached. */
export class PlatformError extends Error {
  override name = "PlatformError";
}

/** No connection could be made (refused, DNS, TLS handshake, certificate rejected). */
export class PlatformUnreachableError extends PlatformError {
  override name = "PlatformUnreachableError";
}

/** The platform did not answer within `platform.timeoutMs`. */
export class PlatformTimeoutError extends PlatformError {
  override name = "PlatformTimeoutError";
}

/** The caller gave the call up before the platform answered (a poller stopping at shutdown). */
export class PlatformCallAbortedError extends PlatformError {
  override name = "PlatformCallAbortedError";
}

/** The connection closed before the platform answered a call. */
export class PlatformConnectionClosedError extends PlatformError {
  override name = "PlatformConnectionClosedError";
}

/** The platform answered, but with an error status, an engine error or a body we cannot read. */
export class PlatformResponseError extends PlatformError {
  override name = "PlatformResponseError";
  /** HTTP status (repository) when there was one. */
  readonly status: number | undefined;
  /** JSON-RPC error code (engine) when there was one. */
  readonly engineErrorCode: number | undefined;

  constructor(message: string, details: { status?: number; engineErrorCode?: number; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.engineErrorCode = details.engineErrorCode;
  }
}

/** The platform knows no app with this id. */
export class AppNotFoundError extends PlatformError {
  override name = "AppNotFoundError";
  constructor(readonly appId: string) {
    super(`App ${appId} not found on the platform`);
  }
}

/** The platform knows no task with this id. */
export class TaskNotFoundError extends PlatformError {
  override name = "TaskNotFoundError";
  constructor(readonly taskId: string) {
    super(`Task ${taskId} not found on the platform`);
  }
}

/** The repository accepted the call but did not start the task (disabled, no scheduler, app missing). */
export class TaskNotStartedError extends PlatformError {
  override name = "TaskNotStartedError";
  constructor(readonly taskId: string) {
    super(`The platform did not start task ${taskId} (task disabled, no scheduler available or app missing)`);
  }
}

/** Certificate files could not be read at start-up. The message names the setting and path only. */
export class PlatformCertificateError extends Error {
  override name = "PlatformCertificateError";
}
