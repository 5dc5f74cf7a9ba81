import { CreateTableCommand, waitUntilTableExists } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll } from "vitest";
import {
  createDynamoRateLimitStore,
  RATE_LIMIT_TABLE_KEY,
} from "../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import { type DynaliteServer, startDynalite } from "../helpers/dynalite-server.ts";
import { describeRateLimitStoreContract } from "./rate-limit-store.contract.ts";

let dynamo: DynaliteServer;
let tableCount = 0;

beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo.close();
});

describeRateLimitStoreContract("in-memory", async () => createMemoryRateLimitStore());

describeRateLimitStoreContract("DynamoDB (dynalite)", async () => {
  // A fresh table per test keeps the tests independent.
  const tableName = `rate-limit-${++tableCount}`;
  await dynamo.client.send(
    new CreateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [{ AttributeName: RATE_LIMIT_TABLE_KEY, AttributeType: "S" }],
      KeySchema: [{ AttributeName: RATE_LIMIT_TABLE_KEY, KeyType: "HASH" }],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
  await waitUntilTableExists(
    { client: dynamo.client, maxWaitTime: 10, minDelay: 0.05 },
    { TableName: tableName },
  );
  return createDynamoRateLimitStore({ client: dynamo.client, tableName });
});
