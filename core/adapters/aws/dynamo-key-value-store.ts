/**
 * KeyValueStore on one DynamoDB table (its layout: dynamo-key-value-table.ts). The key limit is
 * checked with a count before the put; two writers racing for the last free slot can both
 * succeed (DynamoDB has no cheap atomic count), so the limit is best-effort under concurrency.
 * Any other failure is answered as a KeyValueStoreError naming the operation.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { KeyLimitExceededError, KeyValueStoreError } from "../../kv/errors.ts";
import type { Clock, KeyValueStore } from "../../ports.ts";
import { DynamoKeyValueTable } from "./dynamo-key-value-table.ts";

export interface DynamoKeyValueStoreOptions {
  client: DynamoDBClient;
  tableName: string;
  clock: Clock;
  maxKeysPerNamespace: number;
}

async function guard<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof KeyLimitExceededError || error instanceof KeyValueStoreError) throw error;
    throw new KeyValueStoreError(`DynamoDB key-value store: ${what} failed`, { cause: error });
  }
}

export function createDynamoKeyValueStore(options: DynamoKeyValueStoreOptions): KeyValueStore {
  const table = new DynamoKeyValueTable(options.client, options.tableName, options.clock);

  return {
    get: (namespace, key) => guard("get", () => table.liveValue(namespace, key)),

    set: (namespace, key, value, ttlMs) =>
      guard("set", async () => {
        if (!(await table.isLive(namespace, key))) {
          const count = (await table.liveKeys(namespace)).length;
          if (count >= options.maxKeysPerNamespace) {
            throw new KeyLimitExceededError(namespace, options.maxKeysPerNamespace);
          }
          // A live key implies the marker: only a new key can be the namespace's first.
          await table.putNamespace(namespace);
        }
        await table.putEntry(namespace, key, value, ttlMs);
      }),

    deleteKey: (namespace, key) =>
      guard("deleteKey", async () => {
        if (!(await table.namespaceExists(namespace))) return false;
        return table.deleteEntry(namespace, key);
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
