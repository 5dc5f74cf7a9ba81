/**
 * The client closed its connection before its request body arrived in full (it gave up, or the
 * shutdown closed a connection still uploading). Nothing is left to answer and nothing went
 * wrong on this side: a front door's `readText` rejects with this, and the handler says it at
 * DEBUG, not as an unexpected error with a stack.
 */
export class RequestAbortedError extends Error {
  override name = "RequestAbortedError";
}
