/**
 * A data directory that the OS refuses at start, with a real process: `steward start` as a child
 * with the key-value store and the schedules at their default places (`./data/key-values.json`,
 * `./data/schedules.yaml`) and `./data` refusing writes (refusing-directory.ts: a read-only bind
 * mount as root). Steward must start every other part (ingest answers 202), answer the
 * key-value and schedule endpoints with 503 + Retry-After in the REST API's error body, say why
 * in one ERROR per store naming the file and the OS's reason, run no schedule, show it on the
 * status page and the container health check, and, once the directory is usable, open both
 * stores by itself within one retry (5 s), say so at INFO, serve them and run the stored
 * schedules. No crash, no stack trace.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventWithId, expectNoCrash, logLines, postEvent } from "../../helpers/ingest-client.ts";
import {
  freeStewardPorts,
  stewardHealth,
  stewardStatus,
  writeJsonDestinationConfig,
} from "../../helpers/json-destination-steward.ts";
import { refuseWritesDuringTest, scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

const SCHEDULE_ID = "00000000-0000-4000-8000-0000000000a1";

/** One started schedule firing every second, in the store's own format. */
function writeSchedules(directory: string): void {
  writeFileSync(
    join(directory, "schedules.yaml"),
    `schedules:
  - id: ${SCHEDULE_ID}
    created: "2026-01-01T00:00:00.000Z"
    name: every second
    cronSchedule: "* * * * * *"
    timezone: UTC
    platformTaskId: e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1
    startupState: started
    tags: []
    lastKnownState: started
`,
  );
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

async function call(url: string, init?: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // text/plain (schedule status)
  }
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body };
}

const postJson = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

async function statusStores(port: number): Promise<Record<string, unknown>> {
  return (await stewardStatus(port)).stores as Record<string, unknown>;
}

describe("data directory of the key-value store and the schedules refused by the OS at start", () => {
  it("starts, answers 503 on their endpoints with one ERROR each, and serves them once usable", async () => {
    // Prepare: ./data holds a started schedule and refuses writes.
    const dir = scratchDirectory("steward-ro-stores-");
    const data = join(dir, "data");
    mkdirSync(data);
    writeSchedules(data);
    const refusal = refuseWritesDuringTest(data);
    const ports = await freeStewardPorts();
    // The stores at their default places; only the audit queue is kept out of ./data.
    writeJsonDestinationConfig(dir, { ports, queueDirectory: "./queue" });
    const rest = `http://127.0.0.1:${ports.rest}`;
    const kvFile = join(data, "key-values.json");
    const schedulesFile = join(data, "schedules.yaml");

    // Act 1: start with ./data refused; call every kind of endpoint.
    const steward = await startStewardIn(dir);
    const refused = {
      get: await call(`${rest}/v4/keyvalues/ns?key=k`),
      set: await call(`${rest}/v4/keyvalues/ns`, postJson({ key: "k", value: "v" })),
      namespaces: await call(`${rest}/v4/keyvaluesnamespaces`),
      schedules: await call(`${rest}/v4/schedules`),
      schedulesStatus: await call(`${rest}/v4/schedules/status`),
    };
    const ingest = await postEvent(
      `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`,
      eventWithId(randomUUID()),
    );
    const ping = await call(`${rest}/v4/ping`);
    const storesWhileRefused = await statusStores(ports.ui);
    const healthWhileRefused = await stewardHealth(ports.health);
    const outputWhileRefused = steward.output();

    // Assess 1
    console.log(`data directory refused by: ${refusal.how}`);
    expect(refused.get).toEqual({
      status: 503,
      retryAfter: "5",
      body: {
        statusCode: 503,
        error: "Service Unavailable",
        message: "Key-value store temporarily unavailable",
      },
    });
    for (const answer of [refused.set, refused.namespaces]) expect(answer).toEqual(refused.get);
    for (const answer of [refused.schedules, refused.schedulesStatus]) {
      expect(answer).toEqual({
        status: 503,
        retryAfter: "5",
        body: {
          statusCode: 503,
          error: "Service Unavailable",
          message: "Schedule store temporarily unavailable",
        },
      });
    }
    expect(ingest.status).toBe(202);
    expect(ping.status).toBe(200);
    const kvErrors = logLines(outputWhileRefused, "error", /Key-value store cannot be opened/);
    const scheduleErrors = logLines(outputWhileRefused, "error", /Schedule store cannot be opened/);
    expect(kvErrors).toHaveLength(1);
    expect(scheduleErrors).toHaveLength(1);
    expect(kvErrors[0]).toContain(kvFile);
    expect(scheduleErrors[0]).toContain(schedulesFile);
    for (const line of [...kvErrors, ...scheduleErrors]) {
      expect(line).toMatch(/EROFS|EACCES|ENOTDIR/);
      expect(line).not.toContain("ENOENT");
    }
    console.log(kvErrors[0]);
    // Every error is one of those two: the refused calls are answered, not logged as failures.
    expect(logLines(outputWhileRefused, "error", /./)).toHaveLength(2);
    expect(outputWhileRefused).not.toContain("Schedule fired");
    expect(storesWhileRefused).toMatchObject({
      keyValues: { state: "unavailable", file: kvFile, refused: 3 },
      schedules: { state: "unavailable", file: schedulesFile, refused: 2 },
    });
    expect(healthWhileRefused.status).toBe(503);
    expect(healthWhileRefused.body.reason).toContain(kvFile);
    expect(healthWhileRefused.body.reason).toContain(schedulesFile);

    // Act 2: ./data becomes usable; both stores open by themselves at the next retry.
    refusal.restore();
    const restoredAt = Date.now();
    await steward.waitFor(/info: \[key-values\] Key-value store is open/, 10_000);
    await steward.waitFor(/info: \[scheduler\] Schedule store is open/, 10_000);
    const openedWithinMs = Date.now() - restoredAt;
    const set = await call(`${rest}/v4/keyvalues/ns`, postJson({ key: "k", value: "v" }));
    const get = await call(`${rest}/v4/keyvalues/ns?key=k`);
    const schedules = await call(`${rest}/v4/schedules`);
    await steward.waitFor(/Schedule fired/, 5_000);
    const storesAfter = await statusStores(ports.ui);
    const healthAfter = await stewardHealth(ports.health);
    steward.child.kill("SIGTERM");
    const { code } = await steward.exited(20_000);

    // Assess 2
    console.log(`stores open ${openedWithinMs} ms after the directory became usable`);
    expect(openedWithinMs).toBeLessThanOrEqual(6_500);
    expect(set.status).toBe(201);
    expect(get).toMatchObject({ status: 200, body: { namespace: "ns", key: "k", value: "v" } });
    expect(schedules).toMatchObject({ status: 200, body: [{ id: SCHEDULE_ID, lastKnownState: "started" }] });
    expect(storesAfter).toEqual({
      keyValues: { state: "available", file: kvFile },
      schedules: { state: "available", file: schedulesFile },
    });
    expect(healthAfter.status).toBe(200);
    expect(code).toBe(0);
    expectNoCrash(steward.output());
  }, 60_000);
});
