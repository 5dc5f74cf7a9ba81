/**
 * The DynamoDB table behind the key-value store, one item per entry or namespace, with string
 * keys `pk` and `sk`:
 * - entry:     pk = "ns#<namespace>", sk = <key>, value, expiresAtMs (exact), expiresAt (seconds,
 *              the table's TTL attribute so DynamoDB purges eventually — within ~48 h, which is why
 *              every read also filters on expiresAtMs);
 * - namespace: pk = "namespaces", sk = <namespace> (a marker, so that a namespace outlives its
 *              keys and namespaces list with one Query), usedBytes: the bytes of its live keys and
 *              values as the writes added and removed them (an entry that expired still counts
 *              until the namespace is counted again, `recountNamespace`).
 * Every read is consistent: the store answers from what was last written, not a replica's copy.
 */
import {
  type AttributeValue,
  BatchWriteItemCommand,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateItemCommand,
} from "@aws-sdk/client-dynamodb";
import { entryBytes } from "../../kv/key-value-limits.ts";
import type { Clock } from "../../ports.ts";

const NAMESPACES_PK = "namespaces";
const entryPk = (namespace: string) => `ns#${namespace}`;
/** The most requests one BatchWriteItem takes. */
const BATCH_SIZE = 25;

type Item = Record<string, AttributeValue>;

function isLive(item: Item, now: number): boolean {
  const expiresAtMs = item.expiresAtMs?.N;
  return expiresAtMs === undefined || Number(expiresAtMs) > now;
}

/** An update of a marker that a concurrent namespace delete removed is dropped, never a new marker. */
async function ifMarkerExists(update: () => Promise<unknown>): Promise<void> {
  try {
    await update();
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

export class DynamoKeyValueTable {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async namespaceExists(namespace: string): Promise<boolean> {
    const result = await this.client.send(
      new GetItemCommand({
        TableName: this.tableName,
        Key: { pk: { S: NAMESPACES_PK }, sk: { S: namespace } },
        ConsistentRead: true,
      }),
    );
    return result.Item !== undefined;
  }

  /** The namespaces' markers, in no particular order. */
  async namespaces(): Promise<string[]> {
    const items = await this.queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": { S: NAMESPACES_PK } },
      ProjectionExpression: "sk",
    });
    return items.map((item) => item.sk?.S ?? "");
  }

  /** Every namespace with its used bytes (undefined for a marker written before they were counted). */
  async namespaceBytes(): Promise<Map<string, number | undefined>> {
    const items = await this.queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": { S: NAMESPACES_PK } },
      ProjectionExpression: "sk, usedBytes",
    });
    return new Map(
      items.map((item) => [
        item.sk?.S ?? "",
        item.usedBytes?.N === undefined ? undefined : Number(item.usedBytes.N),
      ]),
    );
  }

  /** The namespace's marker, with no bytes yet; a marker already there is left as it is. */
  async putNamespace(namespace: string): Promise<void> {
    await ifMarkerExists(() =>
      this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { pk: { S: NAMESPACES_PK }, sk: { S: namespace }, usedBytes: { N: "0" } },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
  }

  /** Adds `delta` to the namespace's used bytes (nothing when the namespace is gone). */
  async addUsedBytes(namespace: string, delta: number): Promise<void> {
    await ifMarkerExists(() =>
      this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: NAMESPACES_PK }, sk: { S: namespace } },
          UpdateExpression: "ADD usedBytes :delta",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":delta": { N: String(delta) } },
        }),
      ),
    );
  }

  /** Counts the namespace's live keys and values again, stores and answers the bytes. */
  async recountNamespace(namespace: string): Promise<number> {
    const items = await this.queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": { S: entryPk(namespace) } },
      ProjectionExpression: "sk, #value, expiresAtMs",
      ExpressionAttributeNames: { "#value": "value" },
    });
    const now = this.clock.now();
    const bytes = items
      .filter((item) => isLive(item, now))
      .reduce((sum, item) => sum + entryBytes(item.sk?.S ?? "", item.value?.S ?? ""), 0);
    await ifMarkerExists(() =>
      this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: NAMESPACES_PK }, sk: { S: namespace } },
          UpdateExpression: "SET usedBytes = :bytes",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":bytes": { N: String(bytes) } },
        }),
      ),
    );
    return bytes;
  }

  /** Deletes every entry of the namespace, then its marker. */
  async deleteNamespace(namespace: string): Promise<void> {
    const items = await this.queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": { S: entryPk(namespace) } },
      ProjectionExpression: "pk, sk",
    });
    await this.deleteItems(items);
    await this.client.send(
      new DeleteItemCommand({
        TableName: this.tableName,
        Key: { pk: { S: NAMESPACES_PK }, sk: { S: namespace } },
      }),
    );
  }

  /** The entry's value, or undefined when it is missing or expired. */
  async liveValue(namespace: string, key: string): Promise<string | undefined> {
    return (await this.liveEntry(namespace, key))?.value?.S;
  }

  async isLive(namespace: string, key: string): Promise<boolean> {
    return (await this.liveEntry(namespace, key)) !== undefined;
  }

  /** The namespace's keys that have not expired, in no particular order. */
  async liveKeys(namespace: string): Promise<string[]> {
    const items = await this.queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": { S: entryPk(namespace) } },
      ProjectionExpression: "sk, expiresAtMs",
    });
    const now = this.clock.now();
    return items.filter((item) => isLive(item, now)).map((item) => item.sk?.S ?? "");
  }

  /** Writes the entry; `ttlMs` > 0 expires it that many ms from now, otherwise never. */
  async putEntry(namespace: string, key: string, value: string, ttlMs: number | undefined): Promise<void> {
    const item: Item = { pk: { S: entryPk(namespace) }, sk: { S: key }, value: { S: value } };
    if (ttlMs !== undefined && ttlMs > 0) {
      const expiresAtMs = this.clock.now() + ttlMs;
      item.expiresAtMs = { N: String(expiresAtMs) };
      item.expiresAt = { N: String(Math.ceil(expiresAtMs / 1000)) };
    }
    await this.client.send(new PutItemCommand({ TableName: this.tableName, Item: item }));
  }

  /** Deletes the entry; answers its value when it was there and had not expired. */
  async deleteEntry(namespace: string, key: string): Promise<string | undefined> {
    const result = await this.client.send(
      new DeleteItemCommand({
        TableName: this.tableName,
        Key: { pk: { S: entryPk(namespace) }, sk: { S: key } },
        ReturnValues: "ALL_OLD",
      }),
    );
    const old = result.Attributes;
    return old !== undefined && isLive(old, this.clock.now()) ? (old.value?.S ?? "") : undefined;
  }

  private async liveEntry(namespace: string, key: string): Promise<Item | undefined> {
    const result = await this.client.send(
      new GetItemCommand({
        TableName: this.tableName,
        Key: { pk: { S: entryPk(namespace) }, sk: { S: key } },
        ConsistentRead: true,
      }),
    );
    return result.Item !== undefined && isLive(result.Item, this.clock.now()) ? result.Item : undefined;
  }

  /** Every item the query matches, page after page. */
  private async queryAll(input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey">): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          ...input,
          TableName: this.tableName,
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return items;
  }

  private async deleteItems(keys: Item[]): Promise<void> {
    const tableName = this.tableName;
    for (let start = 0; start < keys.length; start += BATCH_SIZE) {
      let requests = keys.slice(start, start + BATCH_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
      // Unprocessed items are retried until DynamoDB takes them all.
      while (requests.length > 0) {
        const result = await this.client.send(
          new BatchWriteItemCommand({ RequestItems: { [tableName]: requests } }),
        );
        requests = (result.UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
          request.DeleteRequest?.Key ? [{ DeleteRequest: { Key: request.DeleteRequest.Key } }] : [],
        );
      }
    }
  }
}
