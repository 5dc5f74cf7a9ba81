import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createDynamoCloudCursorStore } from "../../core/adapters/aws/dynamo-cloud-cursor-store.ts";
import { openCloudCursorFiles } from "../../core/adapters/local/cloud-cursor-files.ts";
import { type DynaliteServer, startDynalite } from "../helpers/dynalite-server.ts";
import { describeCloudCursorStoreContract } from "./cloud-cursor-store.contract.ts";

let dynamo: DynaliteServer;
let tables = 0;
const directories: string[] = [];

beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo.close();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describeCloudCursorStoreContract("files (the local process)", async () => {
  const directory = mkdtempSync(join(tmpdir(), "steward-cursors-"));
  directories.push(directory);
  return { open: () => openCloudCursorFiles(join(directory, "cursors")) };
});

describeCloudCursorStoreContract("DynamoDB (dynalite; the cloud functions)", async () => {
  const tableName = await dynamo.createTable(`qlik-cloud-${tables++}`, "pk", "sk");
  return { open: async () => createDynamoCloudCursorStore({ client: dynamo.client, tableName }) };
});
