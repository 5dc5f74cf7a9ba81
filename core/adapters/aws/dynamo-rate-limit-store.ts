/**
 * RateLimitStore on DynamoDB: one item per key and window, incremented with an atomic
 * `UpdateItem ADD`, so concurrent Lambda instances share one count. Items carry `expiresAt`
 * (Unix seconds, the table's TTL attribute) one window after the window ends; DynamoDB deletes
 * them eventually, and a stale item is never read because the window start is part of the key.
 */

import {
  type DynamoDBClient,
  UpdateItemCommand,
  type UpdateItemCommandOutput,
} from "@aws-sdk/client-dynamodb";
import type { RateLimitStore } from "../../ports.ts";
import { RateLimitStoreError } from "../../ratelimit/index.ts";

export interface DynamoRateLimitStoreOptions {
  client: DynamoDBClient;
  tableName: string;
}

/** Table layout the adapter expects: hash key `pk` (string), TTL attribute `expiresAt`. */
export const RATE_LIMIT_TABLE_KEY = "pk";
export const RATE_LIMIT_TABLE_TTL = "expiresAt";

export function createDynamoRateLimitStore(options: DynamoRateLimitStoreOptions): RateLimitStore {
  const { client, tableName } = options;
  return {
    async increment(key, windowStartMs, windowMs) {
      const expiresAt = Math.ceil((windowStartMs + 2 * windowMs) / 1000);
      let output: UpdateItemCommandOutput;
      try {
        output = await client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: { [RATE_LIMIT_TABLE_KEY]: { S: `${key}#${windowStartMs}` } },
            UpdateExpression: "ADD #count :one SET #expiresAt = if_not_exists(#expiresAt, :expiresAt)",
            ExpressionAttributeNames: { "#count": "hits", "#expiresAt": RATE_LIMIT_TABLE_TTL },
            ExpressionAttributeValues: { ":one": { N: "1" }, ":expiresAt": { N: String(expiresAt) } },
            ReturnValues: "UPDATED_NEW",
          }),
        );
      } catch (error) {
        throw new RateLimitStoreError(`rate-limit counter update failed in table ${tableName}`, {
          cause: error,
        });
      }
      const count = Number(output.Attributes?.hits?.N);
      if (!Number.isInteger(count) || count < 1) {
        throw new RateLimitStoreError(`rate-limit counter update returned no count (table ${tableName})`);
      }
      return count;
    },
  };
}
