/**
 * The DynamoDB table behind the key-value store, one item per entry or namespace, with string
 * keys `pk` and `sk`:
 * - entry:     pk = "ns#<namespace>", sk = <key>, value, expiresAtMs (exact), expiresAt (seconds,
 *              the table's TTL attribute so DynamoDB purges eventually — within ~48 h, which is why
 *              every read also filters on expiresAtMs);
 * - namespace: pk = "namespaces", sk = <namespace> (a marker, so that a namespace outlives its
 *              keys and namespaces list with one Query).
 * Every read is consistent: the store answers from what was last written, not a replica's copy.
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

  async putNamespace(namespace: string): Promise<void> {
    await this.client.send(
      new PutItemCommand({
        TableName: this.tableName,
        Item: { pk: { S: NAMESPACES_PK }, sk: { S: namespace } },
      }),
    );
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

  /** Deletes the entry; true when it was there and had not expired. */
  async deleteEntry(namespace: string, key: string): Promise<boolean> {
    const result = await this.client.send(
      new DeleteItemCommand({
        TableName: this.tableName,
        Key: { pk: { S: entryPk(namespace) }, sk: { S: key } },
        ReturnValues: "ALL_OLD",
      }),
    );
    return result.Attributes !== undefined && isLive(result.Attributes, this.clock.now());
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
