/**
 * The local key-value store (file-key-value-store.ts) opened as soon as it can be: a store file
 * whose directory cannot be created or written at start (a read-only file system, a regular file
 * in the way, no permission) does not stop Steward. One ERROR names the file and the OS's reason,
 * opening is tried again every `retryMs` (retrying-opener.ts), every call meanwhile throws
 * StoreUnavailableError (503 at the REST edge), and an INFO says when it opened. Damaged content
 * of the store's own files still fails the start, with what to repair.
 */
import type { KeyValueStore, Logger } from "../../ports.ts";
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
    open: () => openFileKeyValueStore(storeOptions),
    close: (store) => store.close(),
    retryable: isEnvironmentError,
    fields: { file: options.file },
    messages: {
      cannotOpen: "Key-value store cannot be opened; its endpoints answer 503 until it can",
      stillCannotOpen: "Key-value store still cannot be opened",
      opened: "Key-value store is open; its endpoints answer again",
      listenerFailed: "Key-value store: using it once open failed",
    },
    clock: options.clock,
    logger,
    retryMs,
  });
  const gate = openedOrRefused(opener, {
    file: options.file,
    refusal: "Key-value store temporarily unavailable",
    retryAfterSeconds: Math.ceil(retryMs / 1000),
  });
  return {
    get: async (namespace, key) => gate.use().get(namespace, key),
    set: async (namespace, key, value, ttlMs) => gate.use().set(namespace, key, value, ttlMs),
    deleteKey: async (namespace, key) => gate.use().deleteKey(namespace, key),
    deleteNamespace: async (namespace) => gate.use().deleteNamespace(namespace),
    listKeys: async (namespace) => gate.use().listKeys(namespace),
    listNamespaces: async () => gate.use().listNamespaces(),
    close: () => opener.stop(),
    availability: () => gate.availability(),
  };
}
