import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createDynamoCloudRunInbox } from "../../core/adapters/aws/dynamo-cloud-run-inbox.ts";
import { openFileKeyValueStore } from "../../core/adapters/local/file-key-value-store.ts";
import { createCloudRunInbox } from "../../core/qlik-cloud/index.ts";
import { systemClock } from "../../core/system-clock.ts";
import { type DynaliteServer, startDynalite } from "../helpers/dynalite-server.ts";
import { describeCloudRunInboxContract } from "./cloud-run-inbox.contract.ts";

let dynamo: DynaliteServer;
let tables = 0;
const directories: string[] = [];
const stores: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await dynamo.close();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describeCloudRunInboxContract("the local key-value store", async () => {
  const directory = mkdtempSync(join(tmpdir(), "steward-inbox-"));
  directories.push(directory);
  const store = await openFileKeyValueStore({
    file: join(directory, "runs.json"),
    clock: systemClock,
    maxKeysPerNamespace: 1000,
  });
  stores.push(store);
  return createCloudRunInbox(store);
});

describeCloudRunInboxContract("DynamoDB (dynalite; the cloud functions)", async () => {
  const tableName = await dynamo.createTable(`qlik-cloud-runs-${tables++}`, "pk", "sk");
  // Pending at once: the contract has no invocation to leave the run to.
  return createDynamoCloudRunInbox({
    client: dynamo.client,
    tableName,
    clock: systemClock,
    pendingAfterMs: 0,
  });
});
