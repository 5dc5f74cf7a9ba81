import { GetItemCommand } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDynamoRateLimitStore,
  RATE_LIMIT_TABLE_KEY,
} from "../../../../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { RateLimitStoreError } from "../../../../../core/ratelimit/rate-limit-store-error.ts";
import { type DynaliteServer, startDynalite } from "../../../../helpers/dynalite-server.ts";

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

describe("DynamoDB rate-limit store", () => {
  let dynamo: DynaliteServer;
  const tableName = "rate-limit-items";

  beforeAll(async () => {
    dynamo = await startDynalite();
    await dynamo.createTable(tableName, RATE_LIMIT_TABLE_KEY);
  });
  afterAll(async () => {
    await dynamo.close();
  });

  it("stores one item per key and window that expires one window after the window ends", async () => {
    const store = createDynamoRateLimitStore({ client: dynamo.client, tableName });

    await store.increment("10.0.0.9", T0, 60_000);
    const item = await dynamo.client.send(
      new GetItemCommand({ TableName: tableName, Key: { pk: { S: `10.0.0.9#${T0}` } } }),
    );

    expect(item.Item?.hits?.N).toBe("1");
    expect(item.Item?.expiresAt?.N).toBe(String((T0 + 120_000) / 1000));
  });

  it("throws a RateLimitStoreError with the cause when the table is missing", async () => {
    const store = createDynamoRateLimitStore({ client: dynamo.client, tableName: "no-such-table" });

    const failure = await store.increment("10.0.0.9", T0, 60_000).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RateLimitStoreError);
    expect((failure as Error).cause).toBeDefined();
  });
});
