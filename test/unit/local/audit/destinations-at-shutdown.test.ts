/**
 * The audit destinations stopped within the shutdown budget: one writer that writes, one whose
 * write hangs (a server that stopped answering). At the budget's deadline for destinations the
 * hung one is abandoned; what it did not write is reported once, as staying in the log (durable)
 * or as lost (in memory only, exit status 1).
 */
import { describe, expect, it } from "vitest";
import { startAuditDestinations } from "../../../../core/destinations/start-audit-destinations.ts";
import type { AuditBatch, AuditDestination } from "../../../../core/ports.ts";
import { stopDestinationsWithinBudget } from "../../../../local/audit/destinations-at-shutdown.ts";
import { createShutdownSchedule, SHUTDOWN_BUDGET_MS } from "../../../../local/shutdown-budget.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

function writer(name: string, hangs: boolean): AuditDestination & { written: number } {
  const destination = {
    name,
    written: 0,
    write: (batch: AuditBatch) => {
      if (hangs) return new Promise<void>(() => undefined);
      destination.written += batch.events.length;
      return Promise.resolve();
    },
  };
  return destination;
}

async function stopWithHungDestination(durable: boolean) {
  const clock = createAsyncManualClock();
  const logger = recordingLogger();
  const schedule = createShutdownSchedule(clock);
  const healthy = writer("json", false);
  const destinations = await startAuditDestinations({
    destinations: [
      { destination: healthy, batching: { maxBatchSize: 2, writeFrequency: 0 } },
      { destination: writer("timeseriesdb", true), batching: { maxBatchSize: 2, writeFrequency: 0 } },
    ],
    clock,
    logger,
    stopTimeoutMs: SHUTDOWN_BUDGET_MS.destinations,
  });
  const service = stopDestinationsWithinBudget(destinations, {
    shutdown: schedule,
    durable,
    backlog: () => ({ json: { behindBytes: 0 }, timeseriesdb: { behindBytes: 4321 } }),
    logger,
  });
  // 2 events in the hung write and 18 buffered fill its writer; 5 more wait for room.
  for (let i = 0; i < 20; i++) await destinations.handleEvent(acceptedEvent());
  await clock.settle();
  const waiting = Promise.all(Array.from({ length: 5 }, () => destinations.handleEvent(acceptedEvent())));

  // As the local runtime stops: the queue hands out what it holds, then the destinations stop.
  schedule.begin();
  let stopped = false;
  const stopping = waiting
    .then(() => service.stop())
    .then(() => {
      stopped = true;
    });
  await clock.advance(SHUTDOWN_BUDGET_MS.destinations - 1);
  const stoppedBeforeDeadline = stopped;
  await clock.advance(1);
  await stopping;
  return { logger, schedule, healthy, stoppedBeforeDeadline, stopped };
}

describe("audit destinations stopped within the shutdown budget", () => {
  it("with the durable queue, abandons the hung destination at the deadline with one WARN naming it, and exits 0", async () => {
    const { logger, schedule, healthy, stoppedBeforeDeadline, stopped } = await stopWithHungDestination(true);

    expect(stoppedBeforeDeadline).toBe(false);
    expect(stopped).toBe(true);
    expect(healthy.written).toBe(25);
    expect(logger.at("error")).toEqual([]);
    expect(logger.at("warn").map((entry) => ({ message: entry.message, ...entry.fields }))).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("stays in the queue's log"),
        destination: "timeseriesdb",
        behindBytes: 4321,
      }),
    ]);
    expect(schedule.exitCode()).toBe(0);
  });

  it("without it, counts what the hung destination did not write in one ERROR, and exits 1", async () => {
    const { logger, schedule, stopped } = await stopWithHungDestination(false);

    expect(stopped).toBe(true);
    expect(logger.at("error").map((entry) => ({ message: entry.message, ...entry.fields }))).toEqual([
      { message: expect.stringContaining("could not be written before shutdown"), timeseriesdb: 25 },
    ]);
    expect(schedule.exitCode()).toBe(1);
  });
});
