import { describe, expect, it } from "vitest";
import { createAnswerTurns } from "../../../../core/polling/answer-turns.ts";

/** A `defer` whose callbacks run only when the test says so, one at a time. */
function manualDefer() {
  const pending: (() => void)[] = [];
  return {
    defer: (callback: () => void) => {
      pending.push(callback);
    },
    pending: () => pending.length,
    async runOne() {
      pending.shift()?.();
      // Let the resumed waiter's continuation run.
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

describe("createAnswerTurns", () => {
  it("resumes one waiter per deferred callback, in the order they asked", async () => {
    // Prepare
    const loop = manualDefer();
    const turns = createAnswerTurns(loop.defer);
    const resumed: string[] = [];

    // Act
    for (const name of ["a", "b", "c"]) void turns.turn().then(() => resumed.push(name));
    const before = [...resumed];
    await loop.runOne();
    const afterOne = [...resumed];
    await loop.runOne();
    await loop.runOne();

    // Assess
    expect(before).toEqual([]);
    expect(afterOne).toEqual(["a"]);
    expect(resumed).toEqual(["a", "b", "c"]);
    expect(loop.pending()).toBe(0);
  });

  it("defers nothing while no one waits, and serves a later waiter in a turn of its own", async () => {
    // Prepare
    const loop = manualDefer();
    const turns = createAnswerTurns(loop.defer);

    // Act
    const idle = loop.pending();
    let resumed = false;
    void turns.turn().then(() => {
      resumed = true;
    });
    await Promise.resolve();
    const beforeTurn = resumed;
    await loop.runOne();

    // Assess
    expect(idle).toBe(0);
    expect(beforeTurn).toBe(false);
    expect(resumed).toBe(true);
    expect(loop.pending()).toBe(0);
  });
});
