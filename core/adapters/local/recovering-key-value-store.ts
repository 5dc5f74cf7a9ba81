/**
 * The local key-value store (file-key-value-store.ts) opened as soon as it can be: a store file
 * whose directory cannot be created or written at start (a read-only file system, a regular file
 * in the way, no permission) does not stop Steward. One ERROR names the file and the OS's reason,
 * opening is tried again every `retryMs` (retrying-opener.ts), every call meanwhile throws
 * StoreUnavailableError (503 at the REST edge), and an INFO says when it opened. Damaged content
 * of the store's own files still fails the start, with what to repair.
 *
 * A store whose files are larger than it may read into memory (StoreTooLargeError) is treated
 * like a directory that cannot be used: one ERROR with the sizes and what to do, 503 meanwhile,
 * tried again, and never a crash at start. A store that opens over its limits (written before
 * them, or under larger ones) opens, answers reads and deletes, and refuses writes with 507 until
 * it is under them again; one ERROR at each opening says so, with what it holds.
 *
 * A write that fails later (a disk turned read-only or full) is not acknowledged, and the file
 * store then refuses every call rather than differ from its disk: that call and the next ones
 * answer 503 too, the store is closed and opened again from its files the same way (ERROR, then
 * INFO), and the write that failed is not in it.
 */
import { KeyValueStoreError, StoreTooLargeError } from "../../kv/errors.ts";
import { overLimits } from "../../kv/key-value-limits.ts";
import type { KeyValueStore, Logger } from "../../ports.ts";
import { StoreUnavailableError } from "../../store-unavailable-error.ts";
import { type FileKeyValueStoreOptions, openFileKeyValueStore } from "./file-key-value-store.ts";
import { openedOrRefused, type StoreAvailability } from "./opened-or-refused.ts";
import { DEFAULT_OPEN_RETRY_MS, isEnvironmentError, startRetryingOpener } from "./retrying-opener.ts";

export interface RecoveringKeyValueStoreOptions extends FileKeyValueStoreOptions {
  logger: Logger;
  /** Time between two attempts to open (default 5000 ms). */
  retryMs?: number;
}

export interface RecoveringKeyValueStore extends KeyValueStore {
  availability(): StoreAvailability;
}

/** Tries to open once before resolving; rejects only for damaged content. */
export async function openRecoveringKeyValueStore(
  options: RecoveringKeyValueStoreOptions,
): Promise<RecoveringKeyValueStore> {
  const { logger, retryMs = DEFAULT_OPEN_RETRY_MS, ...storeOptions } = options;
  const opener = await startRetryingOpener({
    async open() {
      const store = await openFileKeyValueStore(storeOptions);
      const over = overLimits(store.usage(), store.limits);
      if (over !== undefined)
        logger.error(
          "Key-value store is over its limits: it answers reads and deletes, and refuses writes (507) until keys or namespaces are deleted to get under them",
          { file: options.file, over },
        );
      return store;
    },
    close: (store) => store.close(),
    retryable: (error) => isEnvironmentError(error) || error instanceof StoreTooLargeError,
    fields: { file: options.file },
    messages: {
      cannotOpen: "Key-value store cannot be opened; its endpoints answer 503 until it can",
      stillCannotOpen: "Key-value store still cannot be opened",
      opened: "Key-value store is open; its endpoints answer again",
      listenerFailed: "Key-value store: using it once open failed",
      failedWhileOpen:
        "Key-value store failed to write; it is opened again from its files and its endpoints answer 503 until then",
    },
    clock: options.clock,
    logger,
    retryMs,
  });
  const refusal = "Key-value store temporarily unavailable";
  const retryAfterSeconds = Math.ceil(retryMs / 1000);
  const gate = openedOrRefused(opener, { file: options.file, refusal, retryAfterSeconds });
  /** The call on the open store; a store that failed is given up to be opened again (503). */
  async function run<R>(call: (store: KeyValueStore) => Promise<R>): Promise<R> {
    const store = gate.use();
    try {
      return await call(store);
    } catch (error) {
      if (!(error instanceof KeyValueStoreError)) throw error;
      opener.reopen(store, error.cause ?? error);
      throw new StoreUnavailableError(refusal, retryAfterSeconds);
    }
  }
  return {
    get: (namespace, key) => run((store) => store.get(namespace, key)),
    set: (namespace, key, value, ttlMs) => run((store) => store.set(namespace, key, value, ttlMs)),
    deleteKey: (namespace, key) => run((store) => store.deleteKey(namespace, key)),
    deleteNamespace: (namespace) => run((store) => store.deleteNamespace(namespace)),
    listKeys: (namespace) => run((store) => store.listKeys(namespace)),
    listNamespaces: () => run((store) => store.listNamespaces()),
    close: () => opener.stop(),
    availability: () => gate.availability(),
  };
}
