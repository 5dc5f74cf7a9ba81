/** Errors of the key-value store, mapped to HTTP statuses at the REST edge. */

/** Adding a new key would exceed `keyValueStore.maxKeysPerNamespace` (400). */
export class KeyLimitExceededError extends Error {
  constructor(
    readonly namespace: string,
    readonly limit: number,
  ) {
    super(`Namespace '${namespace}' already holds the maximum of ${limit} keys`);
    this.name = "KeyLimitExceededError";
  }
}

/** The backing store failed (I/O, DynamoDB); the write was not acknowledged (500). */
export class KeyValueStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "KeyValueStoreError";
  }
}
