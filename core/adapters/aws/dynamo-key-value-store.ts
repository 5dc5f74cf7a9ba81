/**
 * KeyValueStore on one DynamoDB table with string keys `pk` and `sk`:
 * - entry:     pk = "ns#<namespace>", sk = <key>, value, expiresAtMs (exact), expiresAt (seconds,
 *              the table's TTL attribute so DynamoDB purges eventually — within ~48 h, which is why
 *              every read also filters on expiresAtMs);
 * - namespace: pk = "namespaces", sk = <namespace> (a marker, so that a namespace outlives its
 *              keys and namespaces list with one Query).
 * The key limit is checked with a count before the put; two writers racing for the last free
 * slot can both succeed (DynamoDB has no cheap atomic count), so the limit is best-effort under
 * concurrency.
 */
import {
  type AttributeValue,
  BatchWriteItemCommand,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  type QueryCommandInput,
} from "@aws-sdk/client-dynamodb";
import { KeyLimitExceededError, KeyValueStoreError } from "../../kv/errors.ts";
import type { Clock, KeyValueStore } from "../../ports.ts";

export interface DynamoKeyValueStoreOptions {
  client: DynamoDBClient;
  tableName: string;
  clock: Clock;
  maxKeysPerNamespace: number;
}

const NAMESPACES_PK = "namespaces";
const entryPk = (namespace: string) => `ns#${namespace}`;
const BATCH_SIZE = 25;

type Item = Record<string, AttributeValue>;

function isLive(item: Item, now: number): boolean {
  const expiresAtMs = item.expiresAtMs?.N;
  return expiresAtMs === undefined || Number(expiresAtMs) > now;
}

export function createDynamoKeyValueStore(options: DynamoKeyValueStoreOptions): KeyValueStore {
  const { client, tableName, clock } = options;

  async function guard<T>(what: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof KeyLimitExceededError || error instanceof KeyValueStoreError) throw error;
      throw new KeyValueStoreError(`DynamoDB key-value store: ${what} failed`, { cause: error });
    }
  }

  async function queryAll(
    input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey">,
  ): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          ...input,
          TableName: tableName,
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return items;
  }

  async function namespaceExists(namespace: string): Promise<boolean> {
    const result = await client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { pk: { S: NAMESPACES_PK }, sk: { S: namespace } },
        ConsistentRead: true,
      }),
    );
    return result.Item !== undefined;
  }

  async function getLiveItem(namespace: string, key: string): Promise<Item | undefined> {
    const result = await client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { pk: { S: entryPk(namespace) }, sk: { S: key } },
        ConsistentRead: true,
      }),
    );
    return result.Item !== undefined && isLive(result.Item, clock.now()) ? result.Item : undefined;
  }

  async function liveKeys(namespace: string): Promise<string[]> {
    const items = await queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": { S: entryPk(namespace) } },
      ProjectionExpression: "sk, expiresAtMs",
    });
    const now = clock.now();
    return items.filter((item) => isLive(item, now)).map((item) => item.sk?.S ?? "");
  }

  async function deleteItems(keys: Item[]): Promise<void> {
    for (let start = 0; start < keys.length; start += BATCH_SIZE) {
      let requests = keys.slice(start, start + BATCH_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
      // Unprocessed items are retried until DynamoDB takes them all.
      while (requests.length > 0) {
        const result = await client.send(
          new BatchWriteItemCommand({ RequestItems: { [tableName]: requests } }),
        );
        requests = (result.UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
          request.DeleteRequest?.Key ? [{ DeleteRequest: { Key: request.DeleteRequest.Key } }] : [],
        );
      }
    }
  }

  return {
    get: (namespace, key) => guard("get", async () => (await getLiveItem(namespace, key))?.value?.S),

    set: (namespace, key, value, ttlMs) =>
      guard("set", async () => {
        if ((await getLiveItem(namespace, key)) === undefined) {
          const count = (await liveKeys(namespace)).length;
          if (count >= options.maxKeysPerNamespace) {
            throw new KeyLimitExceededError(namespace, options.maxKeysPerNamespace);
          }
          // A live key implies the marker: only a new key can be the namespace's first.
          await client.send(
            new PutItemCommand({
              TableName: tableName,
              Item: { pk: { S: NAMESPACES_PK }, sk: { S: namespace } },
            }),
          );
        }
        const item: Item = { pk: { S: entryPk(namespace) }, sk: { S: key }, value: { S: value } };
        if (ttlMs !== undefined && ttlMs > 0) {
          const expiresAtMs = clock.now() + ttlMs;
          item.expiresAtMs = { N: String(expiresAtMs) };
          item.expiresAt = { N: String(Math.ceil(expiresAtMs / 1000)) };
        }
        await client.send(new PutItemCommand({ TableName: tableName, Item: item }));
      }),

    deleteKey: (namespace, key) =>
      guard("deleteKey", async () => {
        if (!(await namespaceExists(namespace))) return false;
        const result = await client.send(
          new DeleteItemCommand({
            TableName: tableName,
            Key: { pk: { S: entryPk(namespace) }, sk: { S: key } },
            ReturnValues: "ALL_OLD",
          }),
        );
        return result.Attributes !== undefined && isLive(result.Attributes, clock.now());
      }),

    deleteNamespace: (namespace) =>
      guard("deleteNamespace", async () => {
        if (!(await namespaceExists(namespace))) return false;
        const items = await queryAll({
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": { S: entryPk(namespace) } },
          ProjectionExpression: "pk, sk",
        });
        await deleteItems(items);
        await client.send(
          new DeleteItemCommand({
            TableName: tableName,
            Key: { pk: { S: NAMESPACES_PK }, sk: { S: namespace } },
          }),
        );
        return true;
      }),

    listKeys: (namespace) =>
      guard("listKeys", async () => {
        if (!(await namespaceExists(namespace))) return undefined;
        return (await liveKeys(namespace)).sort();
      }),

    listNamespaces: () =>
      guard("listNamespaces", async () => {
        const items = await queryAll({
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": { S: NAMESPACES_PK } },
          ProjectionExpression: "sk",
        });
        return items.map((item) => item.sk?.S ?? "").sort();
      }),

    close: async () => {},
  };
}
