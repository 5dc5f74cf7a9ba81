/** Errors of message publishing. */

/** The topic cannot be published to (empty, wildcards, NUL, too long) (400). */
export class InvalidTopicError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidTopicError";
  }
}
