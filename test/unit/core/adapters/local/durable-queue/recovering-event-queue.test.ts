import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableEventQueue } from "../../../../../../core/adapters/local/durable-queue/durable-event-queue.ts";
import {
  type DurableLog,
  type DurableLogOptions,
  openDurableLog,
} from "../../../../../../core/adapters/local/durable-queue/durable-log.ts";
import { startDurableLogKeeper } from "../../../../../../core/adapters/local/durable-queue/durable-log-keeper.ts";
import { createRecoveringEventQueue } from "../../../../../../core/adapters/local/durable-queue/recovering-event-queue.ts";
import type { AcceptedEvent } from "../../../../../../core/audit/accepted-event.ts";
import { EventQueueUnavailableError } from "../../../../../../core/audit/queue-errors.ts";
import { numberedEvent } from "../../../../../helpers/durable-queue-harness.ts";
import { until } from "../../../../../helpers/eventually.ts";
import { createManualClock } from "../../../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../../../helpers/recording-logger.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "steward-recovering-queue-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const event = (n: number) => numberedEvent(n);

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

/** An opener that fails with EROFS until `allow()`, then opens the real log. */
function refusingOpener() {
  let allowed = false;
  let attempts = 0;
  return {
    attempts: () => attempts,
    allow: () => {
      allowed = true;
    },
    open: async (options: DurableLogOptions): Promise<DurableLog> => {
      attempts += 1;
      if (!allowed) {
        throw Object.assign(new Error(`EROFS: read-only file system, mkdir '${options.directory}'`), {
          code: "EROFS",
        });
      }
      return openDurableLog(options);
    },
  };
}

async function start(directory: string) {
  const clock = createManualClock();
  const logger = recordingLogger();
  const opener = refusingOpener();
  const keeper = await startDurableLogKeeper(
    { directory, destinations: ["json"], maxDiskBytes: 1024 * 1024, clock, logger, retryMs: 5000 },
    { open: opener.open },
  );
  const delivered: AcceptedEvent[] = [];
  const queue = createRecoveringEventQueue({
    keeper,
    directory,
    createQueue: (log) =>
      createDurableEventQueue(
        { backpressureThreshold: 100, rateLimit: { enable: false, maxPerMinute: 600 } },
        {
          log,
          destinations: ["json"],
          deliver: async (_destination, e) => void delivered.push(e),
          logger,
          clock,
        },
      ),
    logger,
    clock,
  });
  return { clock, logger, opener, keeper, queue, delivered };
}

describe("durable queue over a log that cannot be opened at first", () => {
  it("refuses events as unavailable, naming the directory and the reason, with one ERROR", async () => {
    // Prepare
    const directory = join(root, "refused");
    const { logger, queue, keeper } = await start(directory);

    // Act
    const failures = await Promise.all([1, 2, 3].map((n) => queue.enqueue(event(n)).catch((error) => error)));

    // Assess
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(EventQueueUnavailableError);
      expect(failure.message).toBe(
        `the audit event log in ${directory} cannot be opened: EROFS: read-only file system, mkdir '${directory}'`,
      );
    }
    expect(logger.at("error").map((entry) => entry.message)).toEqual([
      "Audit event queue cannot open its log; ingest answers 503 until it can",
    ]);
    expect(queue.availability()).toMatchObject({ state: "unavailable", directory, refused: 3 });
    expect(queue.usage()).toBeUndefined();
    expect(queue.metrics()).toMatchObject({ received: 3, failed: 3, queued: 0 });
    await queue.stop();
    await keeper.stop();
  });

  it("tries again every retryMs, logs the retries at DEBUG, and takes events once the log opens", async () => {
    // Prepare
    const directory = join(root, "recovers");
    const { clock, logger, opener, queue, keeper, delivered } = await start(directory);
    clock.advance(5000);
    await flush();
    expect(opener.attempts()).toBe(2);

    // Act
    opener.allow();
    clock.advance(5000);
    await until(() => keeper.log() !== undefined, 5000);
    const result = await queue.enqueue(event(7));
    await queue.drain();

    // Assess
    expect(result).toBe("queued");
    expect(delivered.map((e) => e.envelope.eventId)).toEqual([event(7).envelope.eventId]);
    expect(logger.at("error")).toHaveLength(1);
    expect(logger.at("debug").map((entry) => entry.message)).toContain(
      "Audit event queue: its log still cannot be opened",
    );
    expect(logger.at("info").map((entry) => entry.message)).toContain(
      "Audit event queue: its log is open; events are accepted again",
    );
    expect(queue.availability()).toEqual({ state: "available", directory });
    expect(queue.usage()).toMatchObject({
      maxDiskBytes: 1024 * 1024,
      destinations: { json: { behindBytes: expect.any(Number) } },
    });
    await queue.stop();
    await keeper.stop();
  });

  it("stops without waiting for the log: no timer is left and nothing is opened afterwards", async () => {
    // Prepare
    const { clock, opener, queue, keeper } = await start(join(root, "stopped"));

    // Act
    await queue.stop();
    await keeper.stop();
    opener.allow();
    clock.advance(60_000);
    await flush();

    // Assess
    expect(opener.attempts()).toBe(1);
    expect(keeper.log()).toBeUndefined();
  });
});
