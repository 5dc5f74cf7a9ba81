/**
 * The runs' inbox and intake on the local file store: a run is durable before `take` resolves,
 * taken once however often and by whichever input it comes, handed to the handler once, counted,
 * remembered across a restart for eight days, and handed on at the next start when a stop (or a
 * failing handler) left it pending. An intake given a queue sends a new run's key there and hands
 * nothing on, keeping the run pending when the key could not be sent; the intake on the other
 * side hands a stored run on by its key once.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openFileKeyValueStore } from "../../../../core/adapters/local/file-key-value-store.ts";
import { createCloudInputMonitor } from "../../../../core/qlik-cloud/cloud-input-monitor.ts";
import type { CloudReloadRun } from "../../../../core/qlik-cloud/cloud-reload-run.ts";
import { createCloudRunInbox, SEEN_FOR_MS } from "../../../../core/qlik-cloud/cloud-run-inbox.ts";
import { createCloudRunIntake } from "../../../../core/qlik-cloud/cloud-run-intake.ts";
import { cloudRun as run } from "../../../helpers/cloud-reload-run.ts";
import { until } from "../../../helpers/eventually.ts";
import { createManualClock, type ManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-cloud-intake-");

/** An intake over a store file in `file`, handing runs to `handled` (or to `handler`). */
async function openIntake(
  file: string,
  clock: ManualClock,
  handler?: (run: CloudReloadRun) => Promise<void>,
) {
  const store = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 1000 });
  const metrics = createMemoryMetricsRegistry();
  const monitor = createCloudInputMonitor(metrics, clock);
  const handled: CloudReloadRun[] = [];
  const logger = recordingLogger();
  const intake = createCloudRunIntake({
    inbox: createCloudRunInbox(store),
    handler: handler ?? (async (taken) => void handled.push(taken)),
    monitor,
    logger,
  });
  const count = (outcome: string, source = "webhook") =>
    monitor.status("sim-a").events[`${source}.${outcome}`] ?? 0;
  return { store, intake, handled, monitor, count, logger };
}

describe("taking Qlik Cloud runs", () => {
  it("stores a run durably before take resolves, and hands it on once however often it comes", async () => {
    const file = join(scratch.fresh(), "runs.json");
    const { store, intake, handled, count } = await openIntake(file, createManualClock());

    const outcomes = await Promise.all([
      intake.take(run("r1")),
      intake.take(run("r1")),
      intake.take(run("r1")),
    ]);
    expect((await stat(`${file}.wal`)).size).toBeGreaterThan(0);
    expect((await stat(`${file}.wal`)).mode & 0o777).toBe(0o600);
    await intake.stop();

    expect(outcomes.sort()).toEqual(["duplicate", "duplicate", "new"]);
    expect(handled.map((taken) => taken.reloadId)).toEqual(["r1"]);
    expect([count("processed"), count("duplicate")]).toEqual([1, 2]);
    await store.close();
  });

  it("counts a run found by polling after its webhook a duplicate once, and the poll's own second look not at all", async () => {
    const { store, intake, handled, count } = await openIntake(
      join(scratch.fresh(), "runs.json"),
      createManualClock(),
    );
    const polled = run("r1", { source: "poll", input: "reloads" });

    expect(await intake.take(run("r1"))).toBe("new");
    expect(await intake.take(polled)).toBe("duplicate");
    expect(await intake.take({ ...polled, input: "audits" })).toBe("seen");
    expect(await intake.take(run("r1"))).toBe("duplicate");
    await intake.stop();

    expect(handled).toHaveLength(1);
    expect([count("duplicate", "poll"), count("duplicate", "webhook")]).toEqual([1, 1]);
    await store.close();
  });

  it("remembers a run across a restart for eight days, then forgets it", async () => {
    const file = join(scratch.fresh(), "runs.json");
    const clock = createManualClock();
    const first = await openIntake(file, clock);
    await first.intake.take(run("r1"));
    await first.intake.stop();
    await first.store.close();

    const second = await openIntake(file, clock);
    expect(await second.intake.take(run("r1"))).toBe("duplicate");
    clock.advance(SEEN_FOR_MS);
    expect(await second.intake.take(run("r1"))).toBe("new");
    await second.intake.stop();
    await second.store.close();
  });

  it("hands on at the next start what a stop left pending, and what the handler refused", async () => {
    const file = join(scratch.fresh(), "runs.json");
    const clock = createManualClock();
    let release: () => void = () => undefined;
    const first = await openIntake(file, clock, (taken) =>
      taken.reloadId === "refused"
        ? Promise.reject(new Error("handler down"))
        : new Promise<void>((resolve) => (release = resolve)),
    );
    await first.intake.take(run("held"));
    await first.intake.take(run("refused"));
    await until(() => first.count("failed") === 1);
    const stopped = first.intake.stop();
    release();
    await stopped;
    await first.store.close();
    expect(first.logger.at("error").map((entry) => entry.fields?.reloadId)).toEqual(["refused"]);

    const second = await openIntake(file, clock);
    expect(await second.intake.resume("sim-a")).toBe(1);
    await second.intake.stop();

    expect(second.handled.map((taken) => taken.reloadId)).toEqual(["refused"]);
    expect(await second.intake.resume("sim-a")).toBe(0);
    await second.store.close();
  });

  it("refuses a run it cannot store, counted failed, without handing it on", async () => {
    const { store, intake, handled, count } = await openIntake(
      join(scratch.fresh(), "runs.json"),
      createManualClock(),
    );
    await store.close();

    await expect(intake.take(run("r1"))).rejects.toThrow(/closed/);

    expect(handled).toEqual([]);
    expect(count("failed")).toBe(1);
  });
});

/**
 * Over one store: an intake that sends new runs' keys to a queue (recorded in `sent`, after `send`
 * when given), and one that hands them on (recorded in `handled`, refused while `refusing(true)`).
 */
async function openQueuedIntakes(send?: () => Promise<void>) {
  const clock = createManualClock();
  const store = await openFileKeyValueStore({
    file: join(scratch.fresh(), "runs.json"),
    clock,
    maxKeysPerNamespace: 1000,
  });
  const monitor = createCloudInputMonitor(createMemoryMetricsRegistry(), clock);
  const logger = recordingLogger();
  const inbox = createCloudRunInbox(store);
  const sent: string[] = [];
  const queue = {
    async send(taken: CloudReloadRun) {
      await send?.();
      sent.push(taken.reloadId);
    },
  };
  const receiving = createCloudRunIntake({ inbox, queue, monitor, logger });
  const handled: string[] = [];
  let refuse = false;
  const handing = createCloudRunIntake({
    inbox,
    handler: async (taken) => {
      if (refuse) throw new Error("the alert could not be sent");
      handled.push(taken.reloadId);
    },
    monitor,
    logger,
  });
  const refusing = (on: boolean) => {
    refuse = on;
  };
  return { store, inbox, monitor, logger, sent, receiving, handing, handled, refusing };
}

describe("taking Qlik Cloud runs for another runtime to hand on", () => {
  it("sends a new run's key to the queue once it is stored and hands nothing on; the other side hands it on once", async () => {
    const { store, sent, receiving, handing, handled, refusing } = await openQueuedIntakes();

    expect(await receiving.take(run("r1"))).toBe("new");
    expect(await receiving.take(run("r1"))).toBe("duplicate");
    expect(sent).toEqual(["r1"]);
    await receiving.settled();
    expect(handled).toEqual([]);

    refusing(true);
    expect(await handing.handOnStored("sim-a", "r1")).toBe("failed");
    refusing(false);
    expect(await handing.handOnStored("sim-a", "r1")).toBe("handed");
    expect(await handing.handOnStored("sim-a", "r1")).toBe("already");
    expect(await handing.handOnStored("sim-a", "unknown")).toBe("already");
    expect(handled).toEqual(["r1"]);
    await store.close();
  });

  it("takes a stored run whose key could not be queued, logs it and keeps it pending for the next resume", async () => {
    const { store, inbox, monitor, logger, receiving } = await openQueuedIntakes(async () => {
      throw new Error("SQS is unavailable");
    });

    expect(await receiving.take(run("r2"))).toBe("new");

    expect(logger.at("warn").map((entry) => [entry.message, entry.fields?.reloadId])).toEqual([
      [
        "A Qlik Cloud reload run was stored but could not be queued to be handed on; it stays pending and the next poll hands it on",
        "r2",
      ],
    ]);
    expect(monitor.status("sim-a").lastError?.message).toBe(
      "queueing reload r2 failed: Error: SQS is unavailable",
    );
    expect((await inbox.pending("sim-a")).map((pending) => pending.reloadId)).toEqual(["r2"]);
    await store.close();
  });
});
