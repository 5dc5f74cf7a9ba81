import { describe, expect, it } from "vitest";
import { createLogThrottle } from "../../../../core/logging/log-throttle.ts";

const T0 = Date.UTC(2026, 0, 1);

describe("createLogThrottle", () => {
  it("lets one line of a key through each interval, standing for every occurrence since the last", () => {
    const throttle = createLogThrottle({ intervalMs: 60_000 });

    const answers = [0, 1, 59_999, 60_000, 60_001].map((offset) => throttle.admit("10.0.0.1", T0 + offset));

    expect(answers).toEqual([1, undefined, undefined, 3, undefined]);
  });

  it("adds up the counts given with each occurrence", () => {
    const throttle = createLogThrottle({ intervalMs: 1000 });

    const answers = [
      throttle.admit("mqtt", T0, 5),
      throttle.admit("mqtt", T0 + 1, 7),
      throttle.admit("mqtt", T0 + 1000, 2),
    ];

    expect(answers).toEqual([5, undefined, 9]);
  });

  it("throttles each key on its own", () => {
    const throttle = createLogThrottle();
    throttle.admit("a", T0);

    expect(throttle.admit("b", T0 + 1)).toBe(1);
    expect(throttle.admit("a", T0 + 2)).toBeUndefined();
  });

  it("keeps at most maxKeys keys: beyond them the least recently logged are forgotten, new keys still get their line", () => {
    const throttle = createLogThrottle({ intervalMs: 60_000, maxKeys: 10 });
    for (let i = 0; i < 10; i++) throttle.admit(`sender-${i}`, T0);

    const newcomer = throttle.admit("newcomer", T0 + 1);
    const oldest = throttle.admit("sender-0", T0 + 2);
    const recent = throttle.admit("sender-9", T0 + 3);

    expect(newcomer).toBe(1);
    expect(oldest).toBe(1);
    expect(recent).toBeUndefined();
  });

  it("still reports what a key held back when its next occurrence comes after many intervals", () => {
    const throttle = createLogThrottle({ intervalMs: 1000 });
    throttle.admit("a", T0);
    throttle.admit("a", T0 + 10);
    throttle.admit("b", T0 + 5000);

    expect(throttle.admit("a", T0 + 9000)).toBe(2);
  });
});
