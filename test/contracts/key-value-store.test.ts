import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createDynamoKeyValueStore } from "../../core/adapters/aws/dynamo-key-value-store.ts";
import { openFileKeyValueStore } from "../../core/adapters/local/file-key-value-store.ts";
import { openRecoveringKeyValueStore } from "../../core/adapters/local/recovering-key-value-store.ts";
import { type DynaliteServer, startDynalite } from "../helpers/dynalite-server.ts";
import { recordingLogger } from "../helpers/recording-logger.ts";
import { describeKeyValueStoreContract } from "./key-value-store.contract.ts";

let dir: string;
let dynamo: DynaliteServer;
let tableCount = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "steward-kv-contract-"));
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo.close();
  await rm(dir, { recursive: true, force: true });
});

let fileCount = 0;
const files = new WeakMap<object, string>();

describeKeyValueStoreContract("local file (write-ahead log)", {
  async create(options) {
    const file = join(dir, `store-${fileCount++}`, "kv.json");
    const store = await openFileKeyValueStore({ file, ...options });
    files.set(store, file);
    return store;
  },
  async reopen(store, options) {
    const file = files.get(store)!;
    await store.close();
    const reopened = await openFileKeyValueStore({ file, ...options });
    files.set(reopened, file);
    return reopened;
  },
});

describeKeyValueStoreContract("local file, opened as soon as it can be (open at once)", {
  async create(options) {
    const file = join(dir, `store-${fileCount++}`, "kv.json");
    const store = await openRecoveringKeyValueStore({ file, logger: recordingLogger(), ...options });
    files.set(store, file);
    return store;
  },
  async reopen(store, options) {
    const file = files.get(store)!;
    await store.close();
    const reopened = await openRecoveringKeyValueStore({ file, logger: recordingLogger(), ...options });
    files.set(reopened, file);
    return reopened;
  },
});

const tables = new WeakMap<object, string>();

describeKeyValueStoreContract("DynamoDB (dynalite)", {
  async create(options) {
    const tableName = await dynamo.createTable(`kv-${tableCount++}`, "pk", "sk");
    const store = createDynamoKeyValueStore({ client: dynamo.client, tableName, ...options });
    tables.set(store, tableName);
    return store;
  },
  async reopen(store, options) {
    const tableName = tables.get(store)!;
    await store.close();
    const reopened = createDynamoKeyValueStore({ client: dynamo.client, tableName, ...options });
    tables.set(reopened, tableName);
    return reopened;
  },
});
