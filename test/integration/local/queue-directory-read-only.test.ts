/**
 * A durable queue directory that the OS refuses at start, with a real process: `steward start`
 * as a child with `auditEvents.queue.directory` below a directory that refuses writes
 * (refusing-directory.ts: a read-only bind mount as root). Steward must start every other part,
 * answer ingest with 503 + Retry-After, say why in one ERROR naming the directory and the OS's
 * reason (not Node's misleading ENOENT), show it on the status page and the container health
 * check, and, once the directory is writable, open the log by itself, say so at INFO and take
 * events again, every one that got a 202 reaching the destination. No crash, no stack trace.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../../helpers/eventually.ts";
import { eventWithId, expectNoCrash, jsonFileIds, logLines, postEvent } from "../../helpers/ingest-client.ts";
import {
  freeStewardPorts,
  stewardHealth,
  stewardStatus,
  writeJsonDestinationConfig,
} from "../../helpers/json-destination-steward.ts";
import { refuseWritesDuringTest, scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

async function queueStatus(port: number): Promise<Record<string, unknown>> {
  return ((await stewardStatus(port)).audit as { queue: Record<string, unknown> }).queue;
}

describe("durable queue directory refused by the OS at start", () => {
  it("starts, answers 503 with one ERROR naming the directory, and takes events once it is writable", async () => {
    // Prepare: ./data refuses writes, so ./data/audit-queue cannot be created.
    const dir = scratchDirectory("steward-ro-queue-");
    mkdirSync(join(dir, "data"));
    const refusal = refuseWritesDuringTest(join(dir, "data"));
    const ports = await freeStewardPorts();
    writeJsonDestinationConfig(dir, {
      ports,
      queueDirectory: "./data/audit-queue",
      storeFiles: { keyValues: "./stores/key-values.json", schedules: "./stores/schedules.yaml" },
    });
    const queueDirectory = join(dir, "data", "audit-queue");
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;

    // Act 1: start with the directory refused, and post.
    const steward = await startStewardIn(dir);
    const refused = [];
    for (let i = 0; i < 5; i++) refused.push(await postEvent(url, eventWithId(randomUUID())));
    const statusWhileRefused = await queueStatus(ports.ui);
    const healthWhileRefused = await stewardHealth(ports.health);

    // Assess 1
    console.log(`queue directory refused by: ${refusal.how}`);
    for (const answer of refused) {
      expect(answer).toMatchObject({
        status: 503,
        retryAfter: "30",
        body: { reason: "Event queue temporarily unavailable" },
      });
    }
    const output = steward.output();
    const openErrors = logLines(output, "error", /Audit event queue cannot open its log/);
    expect(openErrors).toHaveLength(1);
    expect(openErrors[0]).toContain(queueDirectory);
    // The OS's own reason, not the ENOENT of Node's recursive mkdir.
    expect(openErrors[0]).toMatch(/EROFS|EACCES|ENOTDIR/);
    expect(openErrors[0]).not.toContain("ENOENT");
    // Five refused requests, one ERROR for them (at most one a minute).
    expect(logLines(output, "error", /Audit events not accepted \(503\)/)).toHaveLength(1);
    expect(statusWhileRefused).toMatchObject({ state: "unavailable", directory: queueDirectory, refused: 5 });
    expect(healthWhileRefused.status).toBe(503);
    expect(healthWhileRefused.body.reason).toContain(queueDirectory);
    // Everything else started: the REST API answers.
    expect((await fetch(`http://127.0.0.1:${ports.rest}/v4/ping`)).status).toBe(200);

    // Act 2: the directory becomes writable; the log opens by itself (retried every 5 s).
    refusal.restore();
    await steward.waitFor(/info: \[audit-queue\] Audit event queue: its log is open/, 15_000);
    const accepted: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = randomUUID();
      if ((await postEvent(url, eventWithId(id))).status === 202) accepted.push(id);
    }
    const statusAfter = await queueStatus(ports.ui);
    const healthAfter = await stewardHealth(ports.health);
    await until(() => accepted.every((id) => jsonFileIds(join(dir, "out", "json")).has(id)), 15_000, 100);
    steward.child.kill("SIGTERM");
    const { code } = await steward.exited(20_000);

    // Assess 2
    expect(accepted).toHaveLength(20);
    expect(statusAfter).toMatchObject({
      state: "available",
      directory: queueDirectory,
      maxDiskBytes: 1073741824,
    });
    expect(statusAfter).not.toHaveProperty("reason");
    expect(statusAfter).not.toHaveProperty("full");
    expect(healthAfter.status).toBe(200);
    expect(code).toBe(0);
    expectNoCrash(steward.output());
  }, 60_000);
});
