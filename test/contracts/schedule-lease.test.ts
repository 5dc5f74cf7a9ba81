import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDynamoScheduleLease,
  SCHEDULE_LEASE_ID_PREFIX,
} from "../../core/adapters/aws/dynamo-schedule-lease.ts";
import { createDynamoScheduleStore } from "../../core/adapters/aws/dynamo-schedule-store.ts";
import { createMemoryScheduleLease } from "../../core/adapters/local/memory-schedule-lease.ts";
import { type DynaliteServer, startDynalite } from "../helpers/dynalite-server.ts";
import { describeScheduleLeaseContract } from "./schedule-lease.contract.ts";
import { sampleSchedule } from "./schedule-store.contract.ts";

let dynamo: DynaliteServer;
let tables = 0;

beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo.close();
});

describeScheduleLeaseContract("in-memory", async () => {
  const claims = new Map<string, { owner: string; dueMs: number }>();
  return (owner) => createMemoryScheduleLease({ owner, claims });
});

describeScheduleLeaseContract("DynamoDB (dynalite)", async () => {
  const tableName = await dynamo.createTable(`schedule-leases-${tables++}`, "id");
  return (owner) => createDynamoScheduleLease({ client: dynamo.client, tableName, owner });
});

describe("DynamoDB schedule table holding lock items", () => {
  it("never lists, reads or deletes a lock item as a schedule", async () => {
    const tableName = await dynamo.createTable(`schedule-leases-${tables++}`, "id");
    const store = createDynamoScheduleStore({ client: dynamo.client, tableName });
    const schedule = sampleSchedule();
    await store.put(schedule);
    await createDynamoScheduleLease({ client: dynamo.client, tableName, owner: "a" }).claim(schedule.id, 1);

    expect(await store.list()).toEqual([schedule]);
    expect(await store.get(`${SCHEDULE_LEASE_ID_PREFIX}${schedule.id}`)).toBeUndefined();
    expect(await store.delete(`${SCHEDULE_LEASE_ID_PREFIX}${schedule.id}`)).toBe(false);
  });
});
