import { describe, expect, it } from "vitest";
import { startRecurringTimer } from "../../../../core/schedules/recurring-timer.ts";
import { parseRecurrence } from "../../../../core/shared/recurrence.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

describe("recurring timer", () => {
  it("runs at start when asked, then on every occurrence of the schedule", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:10Z"));
    const runs: string[] = [];
    const timer = startRecurringTimer({
      what: "beat",
      recurrence: parseRecurrence("every 1 minute"),
      runAtStart: true,
      run: async () => {
        runs.push(new Date(clock.now()).toISOString());
      },
      clock,
      logger: recordingLogger(),
    });
    await clock.settle();
    expect(runs).toEqual(["2026-01-01T00:00:10.000Z"]);
    expect(new Date(timer.nextAt() as number).toISOString()).toBe("2026-01-01T00:01:00.000Z");
    await clock.advance(50_000);
    await clock.advance(60_000);
    expect(runs).toEqual([
      "2026-01-01T00:00:10.000Z",
      "2026-01-01T00:01:00.000Z",
      "2026-01-01T00:02:00.000Z",
    ]);
    await timer.stop();
    await clock.advance(600_000);
    expect(runs).toHaveLength(3);
  });

  it("does not run at start unless asked", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:10Z"));
    let runs = 0;
    const timer = startRecurringTimer({
      what: "report",
      recurrence: parseRecurrence("*/5 * * * *"),
      runAtStart: false,
      run: async () => {
        runs += 1;
      },
      clock,
      logger: recordingLogger(),
    });
    await clock.advance(60_000);
    expect(runs).toBe(0);
    await clock.advance(240_000);
    expect(runs).toBe(1);
    await timer.stop();
  });

  it("skips an occurrence while the previous run is still going, with a WARN", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:00Z"));
    const logger = recordingLogger();
    let release: () => void = () => undefined;
    let runs = 0;
    const timer = startRecurringTimer({
      what: "beat",
      recurrence: parseRecurrence("every 30 seconds"),
      runAtStart: true,
      run: () => {
        runs += 1;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      clock,
      logger,
    });
    await clock.advance(30_000);
    expect(runs).toBe(1);
    expect(logger.at("warn").map((e) => e.message)).toEqual([
      "the previous beat is still running; this one is skipped",
    ]);
    release();
    await clock.advance(30_000);
    expect(runs).toBe(2);
    release();
    await timer.stop();
  });

  it("reaches occurrences further away than one timer can wait", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:00Z"));
    let runs = 0;
    const timer = startRecurringTimer({
      what: "report",
      recurrence: parseRecurrence("0 0 1 3 *"),
      runAtStart: false,
      run: async () => {
        runs += 1;
      },
      clock,
      logger: recordingLogger(),
    });
    await clock.advance(30 * 86_400_000);
    expect(runs).toBe(0);
    await clock.advance(29 * 86_400_000);
    expect(runs).toBe(1);
    await timer.stop();
  });
});
