/** Errors of message publishing. */

/** The topic cannot be published to (empty, wildcards, NUL, too long) (400). */
export class InvalidTopicError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidTopicError";
  }
}

/** A file named in `mqttConfig.tls` cannot be read at start-up. The message names the setting and path only. */
export class BrokerTlsFileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "BrokerTlsFileError";
  }
}
