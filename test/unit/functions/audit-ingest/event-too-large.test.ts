/**
 * An event within `maxBodyBytes` but larger than the durable queue can ever hold (its record
 * over the whole `maxDiskBytes`), through the ingest API over a real durable queue on disk:
 * 413 in the ingestion shape without Retry-After (a retry cannot succeed), counted as dropped for
 * size (not as queue-full), one WARN (the queue's, with the sizes), and the next event is taken.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDurableEventQueue } from "../../../../core/adapters/local/durable-queue/durable-event-queue.ts";
import { openDurableLog } from "../../../../core/adapters/local/durable-queue/durable-log.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { validEnvelope } from "../../../helpers/audit-envelopes.ts";
import { createTestIngestApp, DEFAULT_TEST_SETTINGS, readBody } from "../../../helpers/ingest-app.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const V = { "x-audit-client-version": "0.3.0" };
const MAX_DISK_BYTES = 65_536;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The durable queue over a log of MAX_DISK_BYTES in a fresh directory, with one destination. */
async function durableQueue() {
  const directory = await mkdtemp(join(tmpdir(), "steward-too-large-"));
  const logger = recordingLogger();
  const log = await openDurableLog({
    directory,
    destinations: ["json"],
    maxDiskBytes: MAX_DISK_BYTES,
    clock: systemClock,
    logger,
  });
  const queue = createDurableEventQueue(
    { backpressureThreshold: 100, rateLimit: { enable: false, maxPerMinute: 600 } },
    { log, destinations: ["json"], deliver: async () => {}, logger, clock: systemClock },
  );
  cleanups.push(async () => {
    await queue.stop();
    await log.close();
    await rm(directory, { recursive: true, force: true });
  });
  return { queue, logger };
}

describe("POST /api/v1/audit-event with an event larger than the durable queue", () => {
  it("answers 413 without Retry-After, counts it as dropped for size, warns once, and takes the next event", async () => {
    // Prepare
    const { queue, logger: queueLogger } = await durableQueue();
    const t = createTestIngestApp({ queue });
    const large = validEnvelope({ type: "audit.event", payload: { pad: "x".repeat(MAX_DISK_BYTES) } });
    expect(JSON.stringify(large).length).toBeLessThan(DEFAULT_TEST_SETTINGS.maxBodyBytes);

    // Act
    const refused = await t.post(large, V);
    const refusedBody = await readBody(refused);
    const again = await t.post(large, V);
    await again.text();
    const normal = await t.post(validEnvelope(), V);

    // Assess
    expect(refused.status).toBe(413);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(refusedBody).toEqual({
      status: "error",
      receivedAt: "2026-01-01T12:00:00.000Z",
      outcome: "dropped",
      reason: expect.stringMatching(/larger than the event queue can ever hold/),
    });
    expect(refusedBody.reason).toContain("auditEvents.queue.maxDiskBytes");
    expect(refusedBody.reason).toContain("auditEvents.maxBodyBytes");
    expect(again.status).toBe(413);
    expect(normal.status).toBe(202);
    expect(queue.metrics()).toMatchObject({
      received: 3,
      queued: 1,
      droppedSize: 2,
      droppedQueueFull: 0,
      droppedTotal: 2,
    });
    expect(queue.usage().full).toBeUndefined();
    // One WARN a minute at most, the queue's (with the sizes); ingest adds none of its own.
    const warnings = queueLogger.at("warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("(413)");
    expect(warnings[0]?.fields).toMatchObject({ maxDiskBytes: MAX_DISK_BYTES, refusedSinceLastWarning: 1 });
    expect(t.logger.at("warn")).toEqual([]);
  });
});
