import { describe, expect, it } from "vitest";
import { startPeriodicPoll } from "../../../../core/polling/periodic-poll.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

/** A round that stays open until the test ends it. */
function controllableRound() {
  const ends: (() => void)[] = [];
  let started = 0;
  return {
    run: () =>
      new Promise<void>((resolve) => {
        started += 1;
        ends.push(resolve);
      }),
    started: () => started,
    endAll: () => {
      for (const end of ends.splice(0)) end();
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("periodic poll", () => {
  it("runs the first round at start, then one per interval on a fixed beat", async () => {
    const clock = createManualClock();
    const round = controllableRound();
    const poll = await startPeriodicPoll({
      what: "test round",
      intervalMs: 1000,
      run: round.run,
      clock,
      logger: recordingLogger(),
    });
    expect(round.started()).toBe(1);
    round.endAll();
    await flush();
    clock.advance(999);
    expect(round.started()).toBe(1);
    clock.advance(1);
    expect(round.started()).toBe(2);
    round.endAll();
    await flush();
    clock.advance(1000);
    expect(round.started()).toBe(3);
    expect(poll.stats()).toEqual({ rounds: 3, skipped: 0 });
    round.endAll();
    await poll.stop();
  });

  it("skips a beat while the previous round runs, with one WARN a minute", async () => {
    const clock = createManualClock();
    const logger = recordingLogger();
    const round = controllableRound();
    const poll = await startPeriodicPoll({
      what: "test round",
      intervalMs: 1000,
      run: round.run,
      clock,
      logger,
      fields: { server: "a" },
    });
    clock.advance(1000);
    clock.advance(1000);
    clock.advance(1000);
    expect(round.started()).toBe(1);
    expect(poll.stats().skipped).toBe(3);
    const warnings = logger.entries.filter((entry) => entry.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("previous test round is still running");
    expect(warnings[0]?.fields).toMatchObject({ server: "a", intervalMs: 1000 });
    round.endAll();
    await flush();
    clock.advance(1000);
    expect(round.started()).toBe(2);
    round.endAll();
    await poll.stop();
  });

  it("a round that throws is logged and the beat goes on", async () => {
    const clock = createManualClock();
    const logger = recordingLogger();
    let calls = 0;
    const poll = await startPeriodicPoll({
      what: "test round",
      intervalMs: 1000,
      run: async () => {
        calls += 1;
        throw new Error("boom");
      },
      clock,
      logger,
    });
    await flush();
    clock.advance(1000);
    await flush();
    expect(calls).toBe(2);
    expect(logger.entries.filter((entry) => entry.level === "error")).toHaveLength(2);
    await poll.stop();
  });

  it("start waits for the first round at most startWaitMs; stop cancels the beat", async () => {
    const clock = createManualClock();
    const logger = recordingLogger();
    const round = controllableRound();
    const starting = startPeriodicPoll({
      what: "test round",
      intervalMs: 10_000,
      run: round.run,
      clock,
      logger,
      startWaitMs: 500,
      stopWaitMs: 100,
    });
    let started = false;
    void starting.then(() => {
      started = true;
    });
    await flush();
    expect(started).toBe(false);
    clock.advance(500);
    const poll = await starting;
    expect(logger.entries.some((entry) => entry.message.includes("first test round is still running"))).toBe(
      true,
    );
    expect(poll.stopping()).toBe(false);
    const stopping = poll.stop();
    expect(poll.stopping()).toBe(true);
    clock.advance(100);
    await stopping;
    expect(logger.entries.some((entry) => entry.message.includes("abandoned"))).toBe(true);
    clock.advance(20_000);
    expect(round.started()).toBe(1);
  });

  it("stop aborts the round in flight and ends with it, without waiting out stopWaitMs", async () => {
    const clock = createManualClock();
    const logger = recordingLogger();
    let roundSignal: AbortSignal | undefined;
    const poll = await startPeriodicPoll({
      what: "test round",
      intervalMs: 10_000,
      // A round that ends only when it is aborted, like a call to a server that never answers.
      run: (signal?: AbortSignal) =>
        new Promise<void>((resolve) => {
          roundSignal = signal;
          signal?.addEventListener("abort", () => resolve());
        }),
      clock,
      logger,
      stopWaitMs: 5000,
    });
    expect(roundSignal?.aborted).toBe(false);

    const outcome = await Promise.race([
      poll.stop().then(() => "stopped"),
      flush().then(() => "still waiting"),
    ]);

    expect(outcome).toBe("stopped");
    expect(roundSignal?.aborted).toBe(true);
    expect(logger.entries.filter((entry) => entry.message.includes("abandoned"))).toEqual([]);
  });
});
