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

/** A write that would take the store past `maxNamespaces` or `maxTotalBytes`, or a store already over them (507). */
export class StoreLimitExceededError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "StoreLimitExceededError";
  }
}

/** The store's files are larger than it may read into memory at start; it stays closed (503) until they are not. */
export class StoreTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreTooLargeError";
  }
}
