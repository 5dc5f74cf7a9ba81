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
  await dynamo.createTable(tableName, RATE_LIMIT_TABLE_KEY);
  return createDynamoRateLimitStore({ client: dynamo.client, tableName });
});
