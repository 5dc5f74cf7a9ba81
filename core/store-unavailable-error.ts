/**
 * A store that cannot be used for now (its file cannot be opened: a read-only file system, a
 * regular file in the way, no permission) while it is retried in the background. The REST edge
 * answers 503 with `Retry-After: retryAfterSeconds`; the message is what the client sees, so it
 * names the store, never a path or the OS's reason (those are in the ERROR log).
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "StoreUnavailableError";
  }
}
