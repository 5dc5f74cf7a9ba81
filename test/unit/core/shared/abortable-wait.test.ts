import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { abortableWait } from "../../../../core/shared/abortable-wait.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";

class Stopped extends Error {}
const stopped = () => new Stopped("stopped");

/** Whether `promise` has settled, and how, after the microtasks queued so far. */
async function stateOf(promise: Promise<void>): Promise<"pending" | "resolved" | Error> {
  let state: "pending" | "resolved" | Error = "pending";
  promise.then(
    () => {
      state = "resolved";
    },
    (error: Error) => {
      state = error;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
}

describe("a wait that a signal can end", () => {
  it("ends when its time on the clock has passed, not before", async () => {
    const clock = createManualClock();
    const wait = abortableWait(1000, clock, new AbortController().signal, stopped);
    clock.advance(999);
    expect(await stateOf(wait)).toBe("pending");
    clock.advance(1);
    expect(await stateOf(wait)).toBe("resolved");
  });

  it("fails at once with the caller's error when the signal aborts, and its timer is gone", async () => {
    const clock = createManualClock();
    const controller = new AbortController();
    const wait = abortableWait(60_000, clock, controller.signal, stopped);
    controller.abort();
    expect(await stateOf(wait)).toBeInstanceOf(Stopped);
    // The cleared timer would otherwise resolve a settled promise; nothing is left to fire.
    clock.advance(60_000);
    expect(await stateOf(wait)).toBeInstanceOf(Stopped);
  });

  it("fails without waiting when the signal has already aborted, even for no time", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await stateOf(abortableWait(0, createManualClock(), controller.signal, stopped))).toBeInstanceOf(
      Stopped,
    );
  });

  it("ends at once for no time, and waits without a signal", async () => {
    const clock = createManualClock();
    expect(await stateOf(abortableWait(0, clock, undefined, stopped))).toBe("resolved");
    const wait = abortableWait(10, clock, undefined, stopped);
    expect(await stateOf(wait)).toBe("pending");
    clock.advance(10);
    expect(await stateOf(wait)).toBe("resolved");
  });

  it("leaves no listener on the signal once it has ended, either way", async () => {
    const clock = createManualClock();
    const controller = new AbortController();
    const ended = abortableWait(5, clock, controller.signal, stopped);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    clock.advance(5);
    expect(await stateOf(ended)).toBe("resolved");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);

    const given = abortableWait(5, clock, controller.signal, stopped);
    controller.abort();
    expect(await stateOf(given)).toBeInstanceOf(Stopped);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
