import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createDynamoScheduleStore } from "../../core/adapters/aws/dynamo-schedule-store.ts";
import { openYamlScheduleStore } from "../../core/adapters/local/yaml-schedule-store.ts";
import type { ScheduleStore } from "../../core/ports.ts";
import { openLocalSchedules } from "../../local/rest/local-schedules.ts";
import { type DynaliteServer, startDynalite } from "../helpers/dynalite-server.ts";
import { createManualClock } from "../helpers/manual-clock.ts";
import { recordingLogger } from "../helpers/recording-logger.ts";
import { describeScheduleStoreContract } from "./schedule-store.contract.ts";

let dir: string;
let dynamo: DynaliteServer;
let count = 0;
const locations = new WeakMap<ScheduleStore, string>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "steward-schedules-contract-"));
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo.close();
  await rm(dir, { recursive: true, force: true });
});

describeScheduleStoreContract("local YAML file", {
  async create() {
    const file = join(dir, `case-${count++}`, "schedules.yaml");
    const store = await openYamlScheduleStore({ file });
    locations.set(store, file);
    return store;
  },
  async reopen(store) {
    const file = locations.get(store)!;
    await store.close();
    const reopened = await openYamlScheduleStore({ file });
    locations.set(reopened, file);
    return reopened;
  },
});

const openLocal = async (file: string) =>
  (
    await openLocalSchedules({
      file,
      clock: createManualClock(),
      logger: recordingLogger(),
      scheduler: undefined,
    })
  ).store;

describeScheduleStoreContract("local YAML file, opened as soon as it can be (open at once)", {
  async create() {
    const file = join(dir, `case-${count++}`, "schedules.yaml");
    const store = await openLocal(file);
    locations.set(store, file);
    return store;
  },
  async reopen(store) {
    const file = locations.get(store)!;
    await store.close();
    const reopened = await openLocal(file);
    locations.set(reopened, file);
    return reopened;
  },
});

describeScheduleStoreContract("DynamoDB (dynalite)", {
  async create() {
    const tableName = await dynamo.createTable(`schedules-${count++}`, "id");
    const store = createDynamoScheduleStore({ client: dynamo.client, tableName });
    locations.set(store, tableName);
    return store;
  },
  async reopen(store) {
    const tableName = locations.get(store)!;
    await store.close();
    const reopened = createDynamoScheduleStore({ client: dynamo.client, tableName });
    locations.set(reopened, tableName);
    return reopened;
  },
});
