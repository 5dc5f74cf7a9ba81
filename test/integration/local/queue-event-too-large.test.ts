/**
 * An event larger than the whole durable queue, with a real process: `steward start` with
 * `auditEvents.queue.maxDiskBytes` at its minimum (64 KiB) and the default `maxBodyBytes`
 * (1 MiB), and an event of about 70 KB, within the body limit but over the queue's budget. It
 * can never be queued, so it gets 413 without Retry-After (a 503 would invite retries forever),
 * the status page counts it as dropped for size (not as queue-full, and the queue is not shown
 * full), one WARN says why with the sizes and the settings, and the next event is taken and
 * written. No crash, no stack trace.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../../helpers/eventually.ts";
import { eventWithId, expectNoCrash, jsonFileIds, logLines, postEvent } from "../../helpers/ingest-client.ts";
import {
  freeStewardPorts,
  stewardStatus,
  writeJsonDestinationConfig,
} from "../../helpers/json-destination-steward.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

const MAX_DISK_BYTES = 65_536;
const MAX_BODY_BYTES = 1_048_576;

describe("an audit event larger than the whole durable queue", () => {
  it("is answered 413 without Retry-After, counted as dropped for size, and the next event is taken", async () => {
    // Prepare
    const dir = scratchDirectory("steward-too-large-");
    const ports = await freeStewardPorts();
    writeJsonDestinationConfig(dir, { ports, queueDirectory: "./queue", maxDiskBytes: MAX_DISK_BYTES });
    const proc = await startStewardIn(dir);
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
    const large = eventWithId(randomUUID(), 70_000);
    const bodyBytes = Buffer.byteLength(JSON.stringify(large));
    expect(bodyBytes).toBeGreaterThan(MAX_DISK_BYTES);
    expect(bodyBytes).toBeLessThan(MAX_BODY_BYTES);

    // Act
    const refused = await postEvent(url, large);
    const normalId = randomUUID();
    const accepted = await postEvent(url, eventWithId(normalId));
    await until(() => jsonFileIds(join(dir, "out", "json")).has(normalId), 10_000, 50);
    const audit = (await stewardStatus(ports.ui)).audit as {
      events: Record<string, number>;
      queue: Record<string, unknown>;
    };
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited(20_000);

    // Assess
    expect(refused).toMatchObject({
      status: 413,
      retryAfter: null,
      body: { status: "error", outcome: "dropped" },
    });
    expect(refused.body?.reason).toContain("larger than the event queue can ever hold");
    expect(refused.body?.reason).toContain("auditEvents.queue.maxDiskBytes");
    expect(refused.body?.reason).toContain("auditEvents.maxBodyBytes");
    expect(accepted.status).toBe(202);
    expect(jsonFileIds(join(dir, "out", "json")).has(large.eventId as string)).toBe(false);
    expect(audit.events).toMatchObject({ received: 2, accepted: 1, droppedSize: 1, droppedQueueFull: 0 });
    expect(audit.queue.full).toBeUndefined();
    const output = proc.output();
    const warnings = logLines(output, "warn", /larger than the whole queue on disk/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("(413)");
    expect(warnings[0]).toContain(`maxDiskBytes=${MAX_DISK_BYTES}`);
    expect(logLines(output, "warn", /full queue|queue is full/)).toEqual([]);
    expect(code).toBe(0);
    expectNoCrash(output);
  }, 60_000);
});
