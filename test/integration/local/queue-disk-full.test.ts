/**
 * A durable queue directory whose disk fills up while Steward runs, with a real process and a
 * real small disk: `auditEvents.queue.directory` on an 8 MiB tmpfs mounted by the test (root
 * only: skipped with a notice elsewhere, a failure in CI), `steward start` as a child under a
 * steady load of 8 KB events.
 *
 * 1. The log fills the disk by itself (`maxDiskBytes` is far larger than the disk): the requests
 *    that meet the full disk get 503 + Retry-After, and the log frees what the destination has
 *    written without any help, so events are taken again within seconds.
 * 2. Another file keeps the disk full (a hog that takes any space freed): 503s, one ERROR a
 *    minute at most naming the directory and ENOSPC, the health check says so; once the file is
 *    deleted, events are taken again and an INFO says so.
 * Throughout: no crash, no stack trace, and every event that got a 202 reaches the destination.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../../helpers/eventually.ts";
import {
  type Answer,
  eventWithId,
  expectNoCrash,
  jsonFileIds,
  logLines,
  postEvent,
} from "../../helpers/ingest-client.ts";
import {
  freeStewardPorts,
  stewardHealth,
  writeJsonDestinationConfig,
} from "../../helpers/json-destination-steward.ts";
import { scratchDirectory, smallDiskDuringTest } from "../../helpers/per-test-environment.ts";
import { smallDiskUnavailable } from "../../helpers/refusing-directory.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

const unavailable = smallDiskUnavailable();
const DISK_BYTES = 8 * 1024 * 1024;
const PAD_BYTES = 8000;
/** Events per second over all clients. */
const RATE = 100;
const CLIENTS = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Timed extends Answer {
  at: number;
  id: string;
}

/** RATE events a second from CLIENTS clients, each pacing itself, until stopped. */
function startLoad(url: string) {
  const answers: Timed[] = [];
  let stopped = false;
  const intervalMs = (1000 * CLIENTS) / RATE;
  const client = async () => {
    let next = Date.now();
    while (!stopped) {
      const id = randomUUID();
      const answer = await postEvent(url, eventWithId(id, PAD_BYTES));
      answers.push({ ...answer, at: Date.now(), id });
      next += intervalMs;
      await sleep(Math.max(0, next - Date.now()));
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/** Keeps `path`'s disk full: appends to `file` until ENOSPC, every 20 ms, until stopped. */
function startHog(file: string) {
  const chunk = Buffer.alloc(4096);
  writeFileSync(file, "");
  const timer = setInterval(() => {
    try {
      for (;;) appendFileSync(file, chunk);
    } catch {
      // full again
    }
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      rmSync(file, { force: true });
    },
  };
}

describe.skipIf(unavailable !== undefined)("durable queue directory on a disk that fills up", () => {
  it("answers 503 while the disk is full, frees what was written, and takes events again when space returns", async () => {
    // Prepare
    const directory = scratchDirectory("steward-disk-full-");
    smallDiskDuringTest(join(directory, "queue"), DISK_BYTES);
    const ports = await freeStewardPorts();
    writeJsonDestinationConfig(directory, { ports, queueDirectory: "./queue", maxPerMinute: 10_000_000 });
    const proc = await startStewardIn(directory);
    const load = startLoad(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`);
    const started = Date.now();

    // Act 1: the log fills the disk; wait for refusals, then for 202s after them.
    await until(() => load.answers.some((answer) => answer.status === 503), 60_000, 100);
    const firstRefusal = load.answers.find((answer) => answer.status === 503) as Timed;
    await until(
      () =>
        load.answers.filter((answer) => answer.at > firstRefusal.at && answer.status === 202).length >= 50,
      30_000,
      100,
    );
    const selfHealed = Date.now();

    // Act 2: another file keeps the disk full.
    const hog = startHog(join(directory, "queue", "hog"));
    await until(
      () => load.answers.some((answer) => answer.at > selfHealed && answer.status === 503),
      20_000,
      50,
    );
    let unhealthy: { status: number; reason: string } | undefined;
    await until(
      async () => {
        const { status, body } = await stewardHealth(ports.health);
        unhealthy = { status, reason: body.reason ?? "" };
        return status === 503;
      },
      10_000,
      50,
    );
    await sleep(2000);
    hog.stop();
    const freed = Date.now();
    await until(
      () => load.answers.filter((answer) => answer.at > freed && answer.status === 202).length >= 50,
      20_000,
      100,
    );
    await load.stop();
    const accepted = load.answers.filter((answer) => answer.status === 202).map((answer) => answer.id);
    await until(
      () => {
        const written = jsonFileIds(join(directory, "out", "json"));
        return accepted.every((id) => written.has(id));
      },
      30_000,
      200,
    );
    // Cursors that could not be written on the full disk are written again once there is room.
    if (logLines(proc.output(), "error", /could not write destination cursors/).length > 0)
      await proc.waitFor(
        /info: \[audit-queue\] Audit event queue: destination cursors are written again/,
        10_000,
      );
    const elapsed = Date.now() - started;
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited(20_000);

    // Assess
    const statuses = new Map<number, number>();
    for (const answer of load.answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    console.log("answers:", JSON.stringify(Object.fromEntries(statuses)), `in ${elapsed} ms`);
    // Only 202 and 503 (never a dropped connection or a 500); every 503 says when to retry.
    expect([...statuses.keys()].sort()).toEqual([202, 503]);
    for (const answer of load.answers.filter((each) => each.status === 503)) {
      expect(answer).toMatchObject({
        retryAfter: "30",
        body: { reason: "Event queue temporarily unavailable" },
      });
    }
    expect(unhealthy?.status).toBe(503);
    expect(unhealthy?.reason).toContain(join(directory, "queue"));
    expect(unhealthy?.reason).toContain("ENOSPC");
    const output = proc.output();
    const refusals = logLines(output, "error", /Audit events not accepted \(503\)/);
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    expect(refusals.length).toBeLessThanOrEqual(1 + Math.floor(elapsed / 60_000));
    expect(refusals[0]).toContain(join(directory, "queue"));
    expect(refusals[0]).toContain("ENOSPC");
    expect(
      logLines(output, "info", /Audit event queue: its log is written again/).length,
    ).toBeGreaterThanOrEqual(2);
    expect(code).toBe(0);
    expectNoCrash(output);
  }, 180_000);
});
