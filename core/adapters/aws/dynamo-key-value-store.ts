/**
 * KeyValueStore on one DynamoDB table (its layout: dynamo-key-value-table.ts). The key limit is
 * checked with a count before the put; two writers racing for the last free slot can both
 * succeed (DynamoDB has no cheap atomic count), so the limit is best-effort under concurrency.
 * Any other failure is answered as a KeyValueStoreError naming the operation.
 *
 * The namespace and byte limits (core/kv/key-value-limits.ts) are checked against the namespace
 * markers, which carry each namespace's used bytes: one Query of at most `maxNamespaces` small
 * items per write, rather than a read of every entry. They are best-effort under concurrency in
 * the same way. DynamoDB removes expired entries without telling anyone, so the counts can only
 * be too high: before a write is refused for its bytes, the namespaces are counted again from
 * their live entries, at most once a minute (a full read of the table), so that a caller pressing
 * on a full store does not turn every refusal into one. Markers written before bytes were
 * counted are counted when first seen.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { KeyLimitExceededError, KeyValueStoreError, StoreLimitExceededError } from "../../kv/errors.ts";
import {
  DEFAULT_MAX_NAMESPACES,
  DEFAULT_MAX_TOTAL_BYTES,
  entryBytes,
  type KeyValueLimits,
  type KeyValueUsage,
  writeRefusal,
} from "../../kv/key-value-limits.ts";
import type { Clock, KeyValueStore } from "../../ports.ts";
import { DynamoKeyValueTable } from "./dynamo-key-value-table.ts";

export interface DynamoKeyValueStoreOptions {
  client: DynamoDBClient;
  tableName: string;
  clock: Clock;
  maxKeysPerNamespace: number;
  /** `keyValueStore.maxNamespaces` (its default when absent). */
  maxNamespaces?: number;
  /** `keyValueStore.maxTotalBytes` (its default when absent). */
  maxTotalBytes?: number;
}

/** The least time between two counts of every namespace's bytes. */
const RECOUNT_INTERVAL_MS = 60_000;

async function guard<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (
      error instanceof KeyLimitExceededError ||
      error instanceof StoreLimitExceededError ||
      error instanceof KeyValueStoreError
    )
      throw error;
    throw new KeyValueStoreError(`DynamoDB key-value store: ${what} failed`, { cause: error });
  }
}

const usageOf = (bytesByNamespace: ReadonlyMap<string, number>): KeyValueUsage => ({
  namespaces: bytesByNamespace.size,
  bytes: [...bytesByNamespace.values()].reduce((sum, bytes) => sum + bytes, 0),
});

/** Each namespace's used bytes; markers without them, or every marker when `recount`, counted from their entries. */
async function namespaceBytes(table: DynamoKeyValueTable, recount: boolean): Promise<Map<string, number>> {
  const counted = new Map<string, number>();
  for (const [namespace, bytes] of await table.namespaceBytes())
    counted.set(namespace, bytes === undefined || recount ? await table.recountNamespace(namespace) : bytes);
  return counted;
}

export function createDynamoKeyValueStore(options: DynamoKeyValueStoreOptions): KeyValueStore {
  const table = new DynamoKeyValueTable(options.client, options.tableName, options.clock);
  const limits: KeyValueLimits = {
    maxKeysPerNamespace: options.maxKeysPerNamespace,
    maxNamespaces: options.maxNamespaces ?? DEFAULT_MAX_NAMESPACES,
    maxTotalBytes: options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES,
  };
  let recountedAt = Number.NEGATIVE_INFINITY;

  /** Throws StoreLimitExceededError when the write may not go; answers whether it adds the namespace. */
  async function checkLimits(namespace: string, bytesDelta: number): Promise<boolean> {
    let bytes = await namespaceBytes(table, false);
    const refusal = () =>
      writeRefusal(usageOf(bytes), { newNamespace: !bytes.has(namespace), bytesDelta }, limits);
    if (refusal() !== undefined && options.clock.now() - recountedAt >= RECOUNT_INTERVAL_MS) {
      recountedAt = options.clock.now();
      bytes = await namespaceBytes(table, true);
    }
    const reason = refusal();
    if (reason !== undefined) throw new StoreLimitExceededError(reason);
    return !bytes.has(namespace);
  }

  return {
    get: (namespace, key) => guard("get", () => table.liveValue(namespace, key)),

    set: (namespace, key, value, ttlMs) =>
      guard("set", async () => {
        const old = await table.liveValue(namespace, key);
        if (old === undefined) {
          const count = (await table.liveKeys(namespace)).length;
          if (count >= options.maxKeysPerNamespace) {
            throw new KeyLimitExceededError(namespace, options.maxKeysPerNamespace);
          }
        }
        const bytesDelta = entryBytes(key, value) - (old === undefined ? 0 : entryBytes(key, old));
        if (await checkLimits(namespace, bytesDelta)) await table.putNamespace(namespace);
        await table.putEntry(namespace, key, value, ttlMs);
        if (bytesDelta !== 0) await table.addUsedBytes(namespace, bytesDelta);
      }),

    deleteKey: (namespace, key) =>
      guard("deleteKey", async () => {
        if (!(await table.namespaceExists(namespace))) return false;
        const old = await table.deleteEntry(namespace, key);
        if (old === undefined) return false;
        await table.addUsedBytes(namespace, -entryBytes(key, old));
        return true;
      }),

    deleteNamespace: (namespace) =>
      guard("deleteNamespace", async () => {
        if (!(await table.namespaceExists(namespace))) return false;
        await table.deleteNamespace(namespace);
        return true;
      }),

    listKeys: (namespace) =>
      guard("listKeys", async () => {
        if (!(await table.namespaceExists(namespace))) return undefined;
        return (await table.liveKeys(namespace)).sort();
      }),

    listNamespaces: () => guard("listNamespaces", async () => (await table.namespaces()).sort()),

    close: async () => {},
  };
}
