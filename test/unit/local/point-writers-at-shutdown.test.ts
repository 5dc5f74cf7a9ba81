/**
 * The agent's writers stopped within the shutdown budget, one after another as the local runtime
 * stops its parts, each with a write hung on a server that stopped answering: at the budget's
 * `pointWriters` time every one still writing is given up, whatever its own stop timeout, so
 * together they end then and leave the audit destinations their time; each says once, at ERROR,
 * what it did not write, and nothing marks the exit status.
 */
import { describe, expect, it } from "vitest";
import { createEventDestinations } from "../../../core/agent-destinations/create-event-destinations.ts";
import { startPeriodicWriter } from "../../../core/destinations/periodic-writer.ts";
import type { Stoppable } from "../../../core/ports.ts";
import { integerField } from "../../../core/shared/line-protocol.ts";
import { stopPointWriterWithinBudget } from "../../../local/point-writers-at-shutdown.ts";
import { createShutdownSchedule, SHUTDOWN_BUDGET_MS } from "../../../local/shutdown-budget.ts";
import { createAsyncManualClock } from "../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";
import { numberedPoint, recordingSeries } from "../../helpers/recording-series.ts";

describe("the agent's writers stopped within the shutdown budget", () => {
  it("gives up on every writer still writing at the pointWriters time, each saying once what it lost", async () => {
    // Prepare: three writers whose own stop timeouts add up to far more than the budget.
    const clock = createAsyncManualClock();
    const logger = recordingLogger();
    const schedule = createShutdownSchedule(clock);
    const series = recordingSeries();
    series.write = () => new Promise<void>(() => {}); // InfluxDB frozen
    const destinations = (name: string) =>
      createEventDestinations({
        maxBatchSize: 10,
        series,
        clock,
        logger: logger.child(name),
        stopTimeoutMs: 5000,
      });
    const user = destinations("user_events");
    const log = destinations("log_events");
    const counts = startPeriodicWriter({
      name: "event-counts",
      intervalMs: 60_000,
      sources: [
        {
          take: (nowMs) => ({
            points: [
              {
                measurement: "event_count",
                tags: {},
                fields: { counter: integerField(3) },
                timestampMs: nowMs,
              },
            ],
            written() {},
          }),
        },
      ],
      series,
      clock,
      logger,
      stopTimeoutMs: 5000,
    });
    await user.writePoints([numberedPoint(1), numberedPoint(2)]);
    await log.writePoints([numberedPoint(3)]);
    await clock.advance(1000); // both batches are in flight now, and hang
    const stopped: Stoppable[] = [
      stopPointWriterWithinBudget(counts, { shutdown: schedule, part: "event-counts", logger }),
      stopPointWriterWithinBudget(log, { shutdown: schedule, part: "log_events", logger }),
      stopPointWriterWithinBudget(user, { shutdown: schedule, part: "user_events", logger }),
    ];

    // Act: the shutdown begins and the writers stop one after another.
    schedule.begin();
    const state = { done: false };
    const stopping = (async () => {
      for (const service of stopped) await service.stop();
      state.done = true;
    })();
    await clock.advance(SHUTDOWN_BUDGET_MS.pointWriters - 1);
    const doneBefore = state.done;
    await clock.advance(1);
    await stopping;

    // Assess
    expect(doneBefore).toBe(false);
    expect(state.done).toBe(true);
    expect(schedule.exitCode()).toBe(0);
    expect(logger.at("error").map((entry) => entry.fields)).toEqual([
      { writer: "event-counts", points: 1 },
      { part: "log_events", destination: "timeseriesdb", unwritten: 1, items: "points" },
      { part: "user_events", destination: "timeseriesdb", unwritten: 2, items: "points" },
    ]);
  });
});
