/**
 * The Qlik Cloud runs' inbox and cursors on DynamoDB (dynalite), as separate function instances
 * use them: of deliveries of one run arriving together in several instances exactly one is new;
 * a run found again by the other input is a duplicate, by the same poll "seen"; a run handed on
 * is remembered without its content; a pending run is listed only once the invocation that took
 * it has had its time, and a claim gives that time again; a run past its eight days is neither
 * claimed nor known, and taken as new again; cursors read what was written.
 */
import { GetItemCommand } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDynamoCloudCursorStore } from "../../../../../core/adapters/aws/dynamo-cloud-cursor-store.ts";
import { createDynamoCloudRunInbox } from "../../../../../core/adapters/aws/dynamo-cloud-run-inbox.ts";
import type { Clock } from "../../../../../core/ports.ts";
import { SEEN_FOR_MS } from "../../../../../core/qlik-cloud/cloud-run-inbox.ts";
import { cloudRun as run } from "../../../../helpers/cloud-reload-run.ts";
import { type DynaliteServer, startDynalite } from "../../../../helpers/dynalite-server.ts";
import { createManualClock } from "../../../../helpers/manual-clock.ts";

const TABLE = "qlik-cloud";
const PENDING_AFTER_MS = 60_000;
let dynamo: DynaliteServer;

beforeAll(async () => {
  dynamo = await startDynalite();
  await dynamo.createTable(TABLE, "pk", "sk");
});
afterAll(async () => {
  await dynamo?.close();
});

const inboxAt = (clock: Clock) =>
  createDynamoCloudRunInbox({
    client: dynamo.client,
    tableName: TABLE,
    clock,
    pendingAfterMs: PENDING_AFTER_MS,
  });

describe("the Qlik Cloud inbox on DynamoDB", () => {
  it("makes exactly one of eight deliveries of a run, taken at once by eight instances, new", async () => {
    const clock = createManualClock(Date.parse("2026-12-06T06:00:00Z"));
    const instances = Array.from({ length: 8 }, () => inboxAt(clock));

    const outcomes = await Promise.all(instances.map((inbox) => inbox.take(run("together"))));

    expect(outcomes.filter((outcome) => outcome === "new")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(7);
  });

  it("answers a poll finding a webhook's run duplicate, and the same poll again seen", async () => {
    const inbox = inboxAt(createManualClock(Date.parse("2026-12-06T06:00:00Z")));
    const polled = run("both", { source: "poll", input: "reloads" });

    expect(await inbox.take(run("both"))).toBe("new");
    expect(await inbox.take(polled)).toBe("duplicate");
    expect(await inbox.take(polled)).toBe("seen");
    expect(await inbox.take(run("both"))).toBe("duplicate");
  });

  it("lists a pending run only once its taker has had its time, and no more once handed on", async () => {
    const clock = createManualClock(Date.parse("2026-12-06T07:00:00Z"));
    const inbox = inboxAt(clock);
    const taken = run("pending", { tenant: "sim-b" });
    await inbox.take(taken);

    expect(await inbox.pending("sim-b")).toEqual([]);
    clock.advance(PENDING_AFTER_MS);
    expect(await inbox.pending("sim-b")).toEqual([taken]);
    await inbox.handed(taken);
    expect(await inbox.pending("sim-b")).toEqual([]);
    const item = await dynamo.client.send(
      new GetItemCommand({ TableName: TABLE, Key: { pk: { S: "run#sim-b" }, sk: { S: "pending" } } }),
    );
    expect(item.Item?.state?.S).toBe("handed");
    expect(item.Item?.run).toBeUndefined();
    expect(await inbox.take(taken)).toBe("duplicate");
  });

  it("leaves a claimed run to its claimer for another while before listing it pending, and claims none past its eight days", async () => {
    const clock = createManualClock(Date.parse("2026-12-06T09:00:00Z"));
    const inbox = inboxAt(clock);
    const taken = run("claimed", { tenant: "sim-c" });
    await inbox.take(taken);
    clock.advance(PENDING_AFTER_MS);
    expect(await inbox.pending("sim-c")).toEqual([taken]);

    expect(await inbox.claim("sim-c", "claimed")).toEqual(taken);
    expect(await inbox.pending("sim-c")).toEqual([]);
    clock.advance(PENDING_AFTER_MS);
    expect(await inbox.pending("sim-c")).toEqual([taken]);
    clock.advance(SEEN_FOR_MS);
    expect(await inbox.claim("sim-c", "claimed")).toBeUndefined();
    expect(await inbox.take(taken)).toBe("new");
  });

  it("takes a run again as new once its record is past its eight days", async () => {
    const clock = createManualClock(Date.parse("2026-12-06T08:00:00Z"));
    const inbox = inboxAt(clock);
    await inbox.take(run("old"));
    await inbox.handed(run("old"));

    clock.advance(SEEN_FOR_MS - 1000);
    expect(await inbox.take(run("old"))).toBe("duplicate");
    clock.advance(SEEN_FOR_MS + 2000);
    expect(await inbox.take(run("old"))).toBe("new");
  });
});

describe("the Qlik Cloud cursors on DynamoDB", () => {
  it("reads no cursor before the first write, then what was written last, per tenant and input", async () => {
    const cursors = createDynamoCloudCursorStore({ client: dynamo.client, tableName: TABLE });

    expect(await cursors.read("sim-a", "reloads")).toBeUndefined();
    await cursors.write("sim-a", "reloads", 1_765_000_000_000);
    await cursors.write("sim-a", "reloads", 1_765_000_300_000);
    await cursors.write("sim-b", "reloads", 5);

    expect(await cursors.read("sim-a", "reloads")).toBe(1_765_000_300_000);
    expect(await cursors.read("sim-a", "audits")).toBeUndefined();
    expect(await cursors.read("sim-b", "reloads")).toBe(5);
  });
});
