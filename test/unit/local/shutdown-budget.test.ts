import { describe, expect, it } from "vitest";
import type { Clock } from "../../../core/ports.ts";
import { createShutdownSchedule, SHUTDOWN_BUDGET_MS } from "../../../local/shutdown-budget.ts";
import { createManualClock } from "../../helpers/manual-clock.ts";

describe("shutdown budget", () => {
  it("leaves the log time to close after the destinations' deadline, and exits before 10 s", () => {
    expect(SHUTDOWN_BUDGET_MS.destinations).toBeLessThan(SHUTDOWN_BUDGET_MS.hardStop - 500);
    expect(SHUTDOWN_BUDGET_MS.hardStop).toBeLessThan(10_000);
  });

  it("runs what is planned that long after the shutdown begins, never before", () => {
    const clock = createManualClock();
    const schedule = createShutdownSchedule(clock);
    const ran: string[] = [];
    schedule.at(8500, () => ran.push("destinations"));

    clock.advance(60_000);
    expect(ran).toEqual([]);
    schedule.begin();
    clock.advance(8499);
    expect(ran).toEqual([]);
    clock.advance(1);

    expect(ran).toEqual(["destinations"]);
  });

  it("runs what is planned at 0 s inside begin itself, before anything else can stop", () => {
    const clock = createManualClock();
    const schedule = createShutdownSchedule(clock);
    const ran: string[] = [];
    schedule.at(SHUTDOWN_BUDGET_MS.listeners, () => ran.push("listeners"));

    schedule.begin();
    ran.push("after begin");
    schedule.at(0, () => ran.push("planned at 0 after begin"));

    expect(ran).toEqual(["listeners", "after begin", "planned at 0 after begin"]);
  });

  it("runs what is planned for the same time in the order it was planned, whatever the clock read meanwhile", () => {
    // The wall clock moves on every read, while timers count from one instant (as Node's do,
    // from the event loop's time): waits computed one read apart would fire the other way round.
    let wall = 0;
    const timers: { waitMs: number; callback: () => void }[] = [];
    const clock: Clock = {
      now: () => wall++,
      setTimeout(callback, ms) {
        timers.push({ waitMs: ms, callback });
        return timers.length;
      },
      clearTimeout: () => undefined,
    };
    const schedule = createShutdownSchedule(clock);
    const ran: string[] = [];
    schedule.at(SHUTDOWN_BUDGET_MS.destinations, () => ran.push("destinations"));
    schedule.at(SHUTDOWN_BUDGET_MS.requestsInFlight, () => ran.push("requests in flight"));

    schedule.begin();
    for (const timer of [...timers].sort((a, b) => a.waitMs - b.waitMs)) timer.callback();

    expect(ran).toEqual(["destinations", "requests in flight"]);
  });

  it("counts from the first begin, also for what is planned after it, and cancels what is left once disposed", () => {
    const clock = createManualClock();
    const schedule = createShutdownSchedule(clock);
    const ran: string[] = [];

    schedule.begin();
    clock.advance(3000);
    schedule.begin();
    schedule.at(5000, () => ran.push("late plan"));
    schedule.at(9000, () => ran.push("disposed"));
    clock.advance(2000);
    schedule.dispose();
    clock.advance(10_000);

    expect(ran).toEqual(["late plan"]);
  });

  it("exits 0 unless events were lost", () => {
    const schedule = createShutdownSchedule(createManualClock());
    expect(schedule.exitCode()).toBe(0);

    schedule.markEventsLost();

    expect(schedule.exitCode()).toBe(1);
  });
});
